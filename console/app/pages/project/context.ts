import type { ProjectJson } from '../../api/types.js';

/** What every project page gets from the frame. */
export interface ProjectContext {
  readonly project: ProjectJson;
  /** `/console/projects/{slug}` or `/perf/{slug}`: links between project pages keep the visitor's side. */
  readonly base: string;
  /** API path of the project, `/projects/{slug}`. */
  readonly path: string;
  /** The caller may change the project's data (archive, dismiss, thresholds, plots, settings). */
  readonly canEdit: boolean;
  readonly console: boolean;
  /** Loads the project again (after its settings changed). */
  readonly reload: () => void;
}

export function tabHref(ctx: ProjectContext, tab: string): string {
  if (tab === 'perf') return ctx.console ? `${ctx.base}/perf` : ctx.base;
  return `${ctx.base}/${tab}`;
}

export type LinkedDimension = 'branches' | 'testbeds' | 'benchmarks';

/** The page of a branch, testbed or benchmark (by slug: a link that reads as what it names). */
export function dimensionHref(ctx: ProjectContext, kind: LinkedDimension, slug: string): string {
  return `${ctx.base}/${kind}/${encodeURIComponent(slug)}`;
}
