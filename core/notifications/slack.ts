/** What a message says of a regression: the fields of its JSON that the message shows. */
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
    readonly change: number | null;
  }[];
  readonly console_url: string;
}

/** What a message says of a report. */
export interface ReportDigest {
  readonly branch: {
    readonly name: string;
    readonly head?: { readonly version?: { readonly number: number } | null };
  };
  readonly testbed: { readonly name: string };
  readonly counts: {
    readonly alerts: { readonly total: number };
    readonly results: readonly { measures: number }[];
  };
  readonly console_url: string;
}

/** Series listed in a message at most; the rest are counted. */
export const SERIES_SHOWN = 10;
/** Characters of a benchmark or measure name shown at most (Slack refuses a section over 3,000). */
const NAME_SHOWN = 120;

/** `+15.2%` / `−3.0%` for a relative change of 0.152 / -0.03; `n/a` when there is none (a zero before). */
export function formatChange(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return 'n/a';
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

const shorten = (name: string) => (name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN - 1)}…` : name);

/** Escapes what Slack's mrkdwn treats as markup (`&`, `<`, `>`). */
function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** What happened to a regression, for a title: `found`, `updated (acknowledged)`, `closed (fixed)`. */
function happened(event: string, status: string): string {
  if (event === 'regression.created') return 'found';
  if (event === 'regression.closed') return `closed (${status})`;
  return `updated (${status})`;
}

/** The headline of a regression event: what happened, where, and how many series. */
export function headline(event: string, project: string, r: RegressionDigest): string {
  const what = r.kind === 'regression' ? 'Regression' : 'Improvement';
  return `${what} ${happened(event, r.status)} in ${project}: ${r.series.length} series on ${r.branch.name} / ${r.testbed.name}, ${rangeText(r)}`;
}

/** One line per series shown (`benchmark (measure): +15.2%`), and how many more there are. */
export function seriesLines(r: Pick<RegressionDigest, 'series'>): string[] {
  const lines = r.series
    .slice(0, SERIES_SHOWN)
    .map((s) => `${shorten(s.benchmark.name)} (${shorten(s.measure.name)}): ${formatChange(s.change)}`);
  if (r.series.length > SERIES_SHOWN) lines.push(`…and ${r.series.length - SERIES_SHOWN} more`);
  return lines;
}

/**
 * Slack's incoming-webhook body (also taken by Mattermost, Rocket.Chat and others) for a regression event:
 * `text` for notifications and clients without blocks, and blocks with the range, the series (up to ten) with
 * their change, the status and the link to the regression in the console.
 */
export function slackRegression(event: string, project: string, r: RegressionDigest) {
  const title = headline(event, project, r);
  const names = r.series
    .slice(0, SERIES_SHOWN)
    .map((s) => `${shorten(s.benchmark.name)} ${formatChange(s.change)}`)
    .join(', ');
  const more = r.series.length > SERIES_SHOWN ? ` and ${r.series.length - SERIES_SHOWN} more` : '';
  return {
    // Slack reads `text` as mrkdwn too: a name like `<json>` would otherwise become a link or vanish
    text: `${escape(`${title}: ${names}${more}`)} ${r.console_url}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*<${r.console_url}|${escape(title)}>*` } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text:
            seriesLines(r)
              .map((line) => `• ${escape(line)}`)
              .join('\n') || '(no series)',
        },
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `Status: *${r.status}* · ${r.kind} · ${escape(rangeText(r))}` }],
      },
    ],
  };
}

/** A report's message: where it ran, its results and alerts, and its link. */
export function slackReport(project: string, r: ReportDigest) {
  const results = r.counts.results.reduce((sum, iteration) => sum + iteration.measures, 0);
  const alerts = r.counts.alerts.total;
  const at = r.branch.head?.version ? ` v${r.branch.head.version.number}` : '';
  const title = `New report in ${project}: ${r.branch.name}${at} / ${r.testbed.name}, ${results} result${results === 1 ? '' : 's'}, ${alerts} alert${alerts === 1 ? '' : 's'}`;
  return {
    text: `${escape(title)} ${r.console_url}`,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `<${r.console_url}|${escape(title)}>` } }],
  };
}

/** The message of a test delivery. */
export function slackPing(project: string) {
  return { text: `Benchtrack test delivery for ${escape(project)}: this webhook works.` };
}
