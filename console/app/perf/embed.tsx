import { useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button.js';
import type { ProjectContext } from '../pages/project/context.js';
import { embedSnippets, imageUrl, perfPageUrl, type ImageStyle } from './export.js';
import type { Selection } from './selection.js';

const STYLES: readonly [string, string, ImageStyle][] = [
  ['png-light', 'PNG, light', { format: 'png', theme: 'light' }],
  ['png-dark', 'PNG, dark', { format: 'png', theme: 'dark' }],
  ['svg-light', 'SVG, light', { format: 'svg', theme: 'light' }],
  ['svg-dark', 'SVG, dark', { format: 'svg', theme: 'dark' }],
];

/**
 * The image link in the chosen format and theme, and Markdown and HTML snippets that show that image and link
 * back to the perf page; on a private project, a warning that the image shows only to its members.
 */
export function Embed({
  ctx,
  selection,
  title,
}: {
  ctx: ProjectContext;
  selection: Selection;
  title: string;
}) {
  const [style, setStyle] = useState(STYLES[0]!);
  const image = imageUrl(ctx.project.slug, selection, title, style[2]);
  const snippets = embedSnippets(image, perfPageUrl(ctx.project.slug, selection), title);
  return (
    <>
      <select
        aria-label="Image format and theme"
        value={style[0]}
        onChange={(e) => setStyle(STYLES.find(([key]) => key === e.currentTarget.value) ?? STYLES[0]!)}
      >
        {STYLES.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
      <CopyButton text={image} label="Copy image link" />
      <CopyButton text={snippets.markdown} label="Copy Markdown" />
      <CopyButton text={snippets.html} label="Copy HTML" />
      {ctx.project.visibility === 'private' && (
        <span class="embed-warning muted small" role="note" data-testid="private-embed">
          This project is private: its image answers 404 to anyone not logged in, so an embed shows only to
          its members{ctx.canEdit ? ' (make the project public in its settings to share it)' : ''}.
        </span>
      )}
    </>
  );
}
