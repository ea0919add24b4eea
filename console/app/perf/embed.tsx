import { CopyButton } from '../components/copy-button.js';
import type { ProjectContext } from '../pages/project/context.js';
import { embedSnippets, imageUrl, perfPageUrl } from './export.js';
import type { Selection } from './selection.js';

/** The image link, and Markdown and HTML snippets that show the image and link back to the perf page. */
export function Embed({
  ctx,
  selection,
  title,
}: {
  ctx: ProjectContext;
  selection: Selection;
  title: string;
}) {
  const image = imageUrl(ctx.project.slug, selection, title);
  const snippets = embedSnippets(image, perfPageUrl(ctx.project.slug, selection), title);
  return (
    <>
      <CopyButton text={image} label="Copy image link" />
      <CopyButton text={snippets.markdown} label="Copy Markdown" />
      <CopyButton text={snippets.html} label="Copy HTML" />
    </>
  );
}
