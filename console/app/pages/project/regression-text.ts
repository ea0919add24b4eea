import type { RegressionJson } from '../../api/types.js';
import { formatPercent, shortHash } from '../../lib/format.js';

export type Regression = RegressionJson;
export type RegressionSeries = Regression['series'][number];
export type TriageStatus = 'untriaged' | 'acknowledged' | 'invalid' | 'fixed' | 'expected';

/** The statuses people set, with the key that sets one on the Regressions page and on a regression's page. */
export const TRIAGE: readonly { status: TriageStatus; key: string; label: string }[] = [
  { status: 'acknowledged', key: 'a', label: 'Acknowledge' },
  { status: 'expected', key: 'e', label: 'Expected' },
  { status: 'invalid', key: 'i', label: 'Invalid' },
  { status: 'fixed', key: 'f', label: 'Fixed' },
  { status: 'untriaged', key: 'u', label: 'Reopen' },
];

/** The status a key sets, when the key is one of {@link TRIAGE}'s and no modifier is held. */
export function triageKey(event: KeyboardEvent): TriageStatus | undefined {
  if (event.metaKey || event.ctrlKey || event.altKey) return undefined;
  return TRIAGE.find((t) => t.key === event.key)?.status;
}

/** Whether a key press belongs to a text field or a control, which keyboard triage leaves alone. */
export function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !!target?.closest('input, select, textarea, [contenteditable]');
}

/** `#44 abc1234`, or a dash when unknown. */
export function versionText(version: { number: number; hash: string | null } | null): string {
  return version ? `#${version.number}${version.hash ? ` ${shortHash(version.hash)}` : ''}` : '—';
}

export function rangeText(regression: Pick<Regression, 'last_good' | 'first_bad'>): string {
  return `${versionText(regression.last_good)} → ${versionText(regression.first_bad)}`;
}

/** The series' change furthest from zero (a fraction: 0.15 = +15 %). */
export function largestChange(regression: Pick<Regression, 'series'>): number | null {
  let largest: number | null = null;
  for (const { change } of regression.series)
    if (change !== null && (largest === null || Math.abs(change) > Math.abs(largest))) largest = change;
  return largest;
}

export const changeText = (change: number | null) => formatPercent(change === null ? null : change * 100);

/** `Regression` or `Improvement`, with a sign people see at a glance. */
export function kindText(regression: Pick<Regression, 'kind'>): string {
  return regression.kind === 'improvement' ? '▼ Improvement' : '▲ Regression';
}

/** Badge class of a status: open ones stand out, closed ones are plain. */
export function statusClass(status: Regression['status']): string {
  return status === 'untriaged' ? 'badge alert' : status === 'acknowledged' ? 'badge warn' : 'badge';
}

/**
 * The code host's comparison of two commits, when the project's URL is a GitHub or GitLab repository
 * (gitlab.com or a host whose name says gitlab) and both hashes are known.
 */
export function compareUrl(
  projectUrl: string | null,
  from: string | null | undefined,
  to: string | null | undefined,
): string | undefined {
  const repository = repositoryOf(projectUrl);
  if (!repository || !from || !to) return undefined;
  return `${repository.url}${repository.host === 'gitlab' ? '/-' : ''}/compare/${from}...${to}`;
}

/** A commit's page on the code host, as {@link compareUrl}. */
export function commitUrl(projectUrl: string | null, hash: string | null | undefined): string | undefined {
  const repository = repositoryOf(projectUrl);
  if (!repository || !hash) return undefined;
  return `${repository.url}${repository.host === 'gitlab' ? '/-' : ''}/commit/${hash}`;
}

function repositoryOf(projectUrl: string | null): { url: string; host: 'github' | 'gitlab' } | undefined {
  if (!projectUrl) return undefined;
  let url: URL;
  try {
    url = new URL(projectUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const path = url.pathname.replace(/\/+$/, '').replace(/\.git$/, '');
  if (url.hostname === 'github.com' && /^\/[^/]+\/[^/]+$/.test(path))
    return { url: `${url.origin}${path}`, host: 'github' };
  if (url.hostname.includes('gitlab') && /^\/[^/]+(\/[^/]+)+$/.test(path))
    return { url: `${url.origin}${path}`, host: 'gitlab' };
  return undefined;
}
