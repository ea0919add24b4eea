import { Fragment } from 'preact';
import { dimensionHref, type LinkedDimension, type ProjectContext } from '../pages/project/context.js';

/**
 * A name with line-break opportunities after its separators (`/`, `::`, `_`, `.`, `-`, ...) and none inside a word:
 * benchmark names such as `parser::json/large_file` wrap at their parts.
 */
export function breakable(name: string) {
  const parts = name.split(/(?<=[/:_.,\-=)\]])(?![/:])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** A branch, testbed or benchmark named where it appears, linking to its page. */
export function DimensionLink({
  ctx,
  kind,
  of,
}: {
  ctx: ProjectContext;
  kind: LinkedDimension;
  of: { readonly slug: string; readonly name: string };
}) {
  return (
    <a class="name" href={dimensionHref(ctx, kind, of.slug)}>
      {breakable(of.name)}
    </a>
  );
}
