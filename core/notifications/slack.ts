/** What a chat message says of a regression: the fields of its JSON that the message shows. */
export interface RegressionDigest {
  readonly kind: 'regression' | 'improvement';
  readonly status: string;
  readonly branch: { readonly name: string };
  readonly testbed: { readonly name: string };
  readonly last_good: { readonly number: number; readonly hash: string | null } | null;
  readonly first_bad: { readonly number: number; readonly hash: string | null };
  readonly series: readonly {
    readonly benchmark: { readonly name: string };
    readonly measure: { readonly name: string };
    readonly change: number;
  }[];
  readonly console_url: string;
}

/** Series listed in a chat message at most; the rest are counted. */
const SERIES_SHOWN = 10;

/** `+15.2%` / `-3.0%` for a relative change of 0.152 / -0.03. */
export function formatChange(change: number): string {
  const percent = change * 100;
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent).toFixed(1)}%`;
}

/** `v45 (1a2b3c4)`: a version's number and its short hash. */
function version(v: { number: number; hash: string | null }): string {
  return v.hash ? `v${v.number} (${v.hash.slice(0, 7)})` : `v${v.number}`;
}

/** The range of a regression in words: `v44 (…)..v45 (…)`, or the first bad version alone. */
export function rangeText(r: Pick<RegressionDigest, 'last_good' | 'first_bad'>): string {
  return r.last_good ? `${version(r.last_good)}..${version(r.first_bad)}` : version(r.first_bad);
}

/** Escapes what Slack's mrkdwn treats as markup (`&`, `<`, `>`). */
function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The headline of an event: what happened, where, and how many series. */
export function headline(event: string, project: string, r: RegressionDigest): string {
  const what = r.kind === 'regression' ? 'Regression' : 'Improvement';
  const verb =
    event === 'regression.created' ? 'found' : event === 'regression.closed' ? `closed (${r.status})` : r.status;
  const count = `${r.series.length} series`;
  return `${what} ${verb} in ${project}: ${count} on ${r.branch.name} / ${r.testbed.name}, ${rangeText(r)}`;
}

/**
 * Slack's incoming-webhook body (also taken by Mattermost, Rocket.Chat and others): `text` for notifications and
 * clients without blocks, and blocks with the range, every series (up to ten) with its change, the status and
 * the link to the regression in the console.
 */
export function slackBody(event: string, project: string, r: RegressionDigest) {
  const title = headline(event, project, r);
  const lines = r.series
    .slice(0, SERIES_SHOWN)
    .map((s) => `• ${escape(s.benchmark.name)} (${escape(s.measure.name)}): ${formatChange(s.change)}`);
  if (r.series.length > SERIES_SHOWN) lines.push(`…and ${r.series.length - SERIES_SHOWN} more`);
  const names = r.series.map((s) => `${s.benchmark.name} ${formatChange(s.change)}`).join(', ');
  return {
    text: `${title}: ${names} ${r.console_url}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*<${r.console_url}|${escape(title)}>*` } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') || '(no series)' } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `Status: *${r.status}* · ${r.kind} · ${escape(rangeText(r))}` }],
      },
    ],
  };
}
