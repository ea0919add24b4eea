import type { PerfColumns } from '../storage/records.js';

/**
 * What the perf answer needs besides the points: per permutation the JSON of its dimensions (the part before
 * `"metrics":[`) and their names (for CSV), the JSON of each threshold model by `threshold:model` id, and the
 * JSON head of the answer. Everything here is structured-clone safe, so shaping can run in a worker.
 */
export interface PerfShapeInput {
  readonly columns: PerfColumns;
  readonly prefixes: readonly string[];
  readonly names: readonly (readonly [string, string, string, string])[];
  readonly thresholds: Readonly<Record<string, string>>;
  readonly head: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const num = (value: number) => (Number.isNaN(value) ? 'null' : JSON.stringify(value));
const str = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/** The perf answer as JSON text, built point by point into one string (no object per point). */
export function perfJson(input: PerfShapeInput): string {
  const c = input.columns;
  const parts: string[] = [input.head];
  let open = -1;
  for (let i = 0; i < c.count; i++) {
    const p = c.permutation[i] as number;
    if (p !== open) {
      if (open >= 0) parts.push(']},');
      parts.push(input.prefixes[p] as string, '"metrics":[');
      open = p;
    } else parts.push(',');
    parts.push(point(input, i));
  }
  if (open >= 0) parts.push(']}');
  parts.push(']}');
  return parts.join('');
}

function point(input: PerfShapeInput, i: number): string {
  const c = input.columns;
  const threshold = c.threshold[i] ? (input.thresholds[`${c.threshold[i]}:${c.model[i]}`] ?? 'null') : 'null';
  const boundary = c.threshold[i]
    ? `{"baseline":${num(c.baseline[i] as number)},"lower_limit":${num(c.lowerLimit[i] as number)},"upper_limit":${num(c.upperLimit[i] as number)}}`
    : 'null';
  const alert =
    c.alert[i] === null
      ? 'null'
      : `{"uuid":${str(c.alert[i] as string)},"limit":${str(c.alertLimit[i] as string)},"status":${str(c.alertStatus[i] as string)},"modified":"${iso(c.alertModified[i] as number)}"}`;
  return (
    `{"report":${str(c.report[i] as string)},"iteration":${c.iteration[i]},"start_time":"${iso(c.start[i] as number)}",` +
    `"end_time":"${iso(c.end[i] as number)}","version":{"number":${c.version[i]},"hash":${str(c.hash[i] as string | null)}},` +
    `"metric":{"uuid":${str(c.uuid[i] as string)},"value":${num(c.value[i] as number)},"lower_value":${num(c.lower[i] as number)},` +
    `"upper_value":${num(c.upper[i] as number)}},"threshold":${threshold},"boundary":${boundary},"alert":${alert}}`
  );
}

const CSV_HEADER =
  'branch,testbed,benchmark,measure,report,iteration,start_time,end_time,version,hash,metric,value,lower_value,upper_value,baseline,lower_limit,upper_limit,alert_limit,alert_status';

/** RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled. */
function field(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const csvNum = (value: number) => (Number.isNaN(value) ? '' : String(value));

/** The perf answer as CSV, one row per point, for spreadsheets and notebooks. */
export function perfCsv(input: PerfShapeInput): string {
  const c = input.columns;
  const rows: string[] = [CSV_HEADER];
  for (let i = 0; i < c.count; i++) {
    const names = (input.names[c.permutation[i] as number] ?? ['', '', '', '']).map(field).join(',');
    rows.push(
      [
        names,
        c.report[i],
        c.iteration[i],
        iso(c.start[i] as number),
        iso(c.end[i] as number),
        c.version[i],
        c.hash[i] ?? '',
        c.uuid[i],
        csvNum(c.value[i] as number),
        csvNum(c.lower[i] as number),
        csvNum(c.upper[i] as number),
        csvNum(c.baseline[i] as number),
        csvNum(c.lowerLimit[i] as number),
        csvNum(c.upperLimit[i] as number),
        c.alertLimit[i] ?? '',
        c.alertStatus[i] ?? '',
      ].join(','),
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}
