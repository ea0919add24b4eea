import type { PerfFields } from '../schemas/perf.js';
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
  /** null: the points leave their threshold out (the query's `threshold_models=false`). */
  readonly thresholds: Readonly<Record<string, string>> | null;
  readonly head: string;
  /** The answer's fields (the query's `fields`) for JSON and Arrow; absent: all. CSV always has all. */
  readonly fields?: PerfFields | undefined;
}

/** ASCII codes of the two hex digits of each byte value. */
const HEX_CODES = Uint16Array.from({ length: 256 }, (_, byte) => {
  const text = byte.toString(16).padStart(2, '0');
  return text.charCodeAt(0) | (text.charCodeAt(1) << 8);
});
const UUID_TEXT = Buffer.alloc(36);
/** Where the hex digits of each UUID byte go in the text (dashes stay put). */
const UUID_DIGITS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const UUID_DASHES = [8, 13, 18, 23];

/**
 * The UUID of point `i` from its four 32-bit words (see `PerfColumns`). Written as bytes into one buffer and
 * read back as one flat string: concatenating 20 pieces per UUID made rope strings that kept the garbage
 * collector busy for most of a large answer.
 */
export function uuidAt(words: Uint32Array, count: number, i: number): string {
  writeUuid(words, count, i, UUID_TEXT, 0);
  return UUID_TEXT.toString('latin1', 0, 36);
}

/** Writes the 36 characters of the UUID of point `i` into `target` at `offset`, as Latin-1 bytes. */
export function writeUuid(
  words: Uint32Array,
  count: number,
  i: number,
  target: Uint8Array,
  offset: number,
): void {
  for (const dash of UUID_DASHES) target[offset + dash] = 0x2d;
  for (let k = 0; k < 4; k++) {
    const word = words[k * count + i] as number;
    for (let b = 0; b < 4; b++) {
      const codes = HEX_CODES[(word >>> (24 - 8 * b)) & 0xff] as number;
      const at = offset + (UUID_DIGITS[4 * k + b] as number);
      target[at] = codes & 0xff;
      target[at + 1] = codes >>> 8;
    }
  }
}

/**
 * The fixed-width columns of a perf answer (all but its texts), in one order: what is hashed for its ETag and
 * moved to a worker without copying.
 */
export function fixedWidthColumns(c: PerfColumns): ArrayBufferView[] {
  return [
    c.permutation,
    c.report,
    c.iteration,
    c.start,
    c.end,
    c.version,
    c.uuid,
    c.value,
    c.lower,
    c.upper,
    c.threshold,
    c.model,
    c.baseline,
    c.lowerLimit,
    c.upperLimit,
    c.alertModified,
  ];
}

/** UUID texts as the four-word columns of `PerfColumns` (for storages that read UUIDs as text, and tests). */
export function uuidWords(uuids: readonly string[]): Uint32Array {
  const words = new Uint32Array(4 * uuids.length);
  uuids.forEach((uuid, i) => {
    const hex = uuid.replaceAll('-', '');
    for (let k = 0; k < 4; k++)
      words[k * uuids.length + i] = Number.parseInt(hex.slice(8 * k, 8 * k + 8), 16);
  });
  return words;
}

const iso = (ms: number) => new Date(ms).toISOString();
const num = (value: number) => (Number.isFinite(value) ? String(value) : 'null');
/** Strings here are UUIDs, git hashes and enum words (checked on the way in): nothing to escape. */
const str = (value: string | null) => (value === null ? 'null' : `"${value}"`);

/**
 * ISO text of epoch milliseconds, remembered: points of one report share their times, and every permutation
 * repeats the same reports (Date formatting is most of the cost of a point otherwise).
 */
function isoCache(): (ms: number) => string {
  const seen = new Map<number, string>();
  return (ms) => {
    let text = seen.get(ms);
    if (text === undefined) seen.set(ms, (text = iso(ms)));
    return text;
  };
}

/**
 * Text appended as UTF-8 into one growing buffer. Appending to one JavaScript string builds a rope of millions
 * of pieces that the garbage collector keeps walking; this keeps each piece short-lived, and the result is one
 * buffer a worker can hand over without copying. Pieces are gathered into a string of about 16 K characters
 * before each write: a native call per piece cost more than the text it wrote.
 */
export class Utf8Builder {
  #buffer: Buffer;
  #length = 0;
  #pending = '';

  /** `expected`: bytes the result will probably need, so the buffer seldom grows. */
  constructor(expected = 64 * 1024) {
    this.#buffer = Buffer.allocUnsafe(Math.max(1024, expected));
  }

  push(text: string): void {
    this.#pending += text;
    if (this.#pending.length >= 16_384) this.#flush();
  }

  bytes(): Uint8Array {
    this.#flush();
    return new Uint8Array(this.#buffer.buffer, this.#buffer.byteOffset, this.#length);
  }

  #flush(): void {
    const text = this.#pending;
    this.#pending = '';
    const need = this.#length + 3 * text.length; // at most 3 UTF-8 bytes per UTF-16 unit
    if (need > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.#buffer.length));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }
}

/** The perf answer as JSON (UTF-8), written point by point (no object per point). */
export function perfJson(input: PerfShapeInput): Uint8Array {
  const steps = perfJsonSteps(input, Number.POSITIVE_INFINITY);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link perfJson} in steps of `slice` points: the caller may let other work run between two steps, so a
 * shaper on the event loop never holds it for long.
 */
export function* perfJsonSteps(input: PerfShapeInput, slice: number): Generator<void, Uint8Array> {
  const c = input.columns;
  const time = isoCache();
  const out = new Utf8Builder(512 * c.count + 64 * 1024);
  out.push(input.head);
  let open = -1;
  for (let i = 0; i < c.count; i++) {
    if (i > 0 && i % slice === 0) yield;
    const p = c.permutation[i] as number;
    if (p !== open) {
      if (open >= 0) out.push(']},');
      out.push(`${input.prefixes[p]}"metrics":[`);
      open = p;
    } else out.push(',');
    out.push(point(input, i, time));
  }
  out.push(open >= 0 ? ']}]}' : ']}');
  return out.bytes();
}

function point(input: PerfShapeInput, i: number, time: (ms: number) => string): string {
  const c = input.columns;
  const models = input.thresholds;
  const threshold =
    models === null
      ? ''
      : `"threshold":${c.threshold[i] ? (models[`${c.threshold[i]}:${c.model[i]}`] ?? 'null') : 'null'},`;
  const boundary = c.threshold[i]
    ? `{"baseline":${num(c.baseline[i] as number)},"lower_limit":${num(c.lowerLimit[i] as number)},"upper_limit":${num(c.upperLimit[i] as number)}}`
    : 'null';
  const alert =
    c.alert[i] === null
      ? 'null'
      : `{"uuid":${str(c.alert[i] as string)},"limit":${str(c.alertLimit[i] as string)},"status":${str(c.alertStatus[i] as string)},"modified":"${time(c.alertModified[i] as number)}"}`;
  // what a plot has no use for (fields=plot): the end time and the metric's UUID
  const all = input.fields !== 'plot';
  return (
    `{"report":"${uuidAt(c.report, c.count, i)}","iteration":${c.iteration[i]},"start_time":"${time(c.start[i] as number)}",` +
    `${all ? `"end_time":"${time(c.end[i] as number)}",` : ''}"version":{"number":${c.version[i]},"hash":${str(c.hash[i] as string | null)}},` +
    `"metric":{${all ? `"uuid":"${uuidAt(c.uuid, c.count, i)}",` : ''}"value":${num(c.value[i] as number)},"lower_value":${num(c.lower[i] as number)},` +
    `"upper_value":${num(c.upper[i] as number)}},${threshold}"boundary":${boundary},"alert":${alert}}`
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

/** The perf answer as CSV (UTF-8), one row per point, for spreadsheets and notebooks. */
export function perfCsv(input: PerfShapeInput): Uint8Array {
  const c = input.columns;
  const time = isoCache();
  const names = input.names.map((four) => four.map(field).join(','));
  const out = new Utf8Builder(256 * c.count + 64 * 1024);
  out.push(`${CSV_HEADER}\r\n`);
  for (let i = 0; i < c.count; i++) {
    out.push(
      [
        names[c.permutation[i] as number] ?? ',,,',
        uuidAt(c.report, c.count, i),
        c.iteration[i],
        time(c.start[i] as number),
        time(c.end[i] as number),
        c.version[i],
        c.hash[i] ?? '',
        uuidAt(c.uuid, c.count, i),
        csvNum(c.value[i] as number),
        csvNum(c.lower[i] as number),
        csvNum(c.upper[i] as number),
        csvNum(c.baseline[i] as number),
        csvNum(c.lowerLimit[i] as number),
        csvNum(c.upperLimit[i] as number),
        c.alertLimit[i] ?? '',
        c.alertStatus[i] ?? '',
      ].join(',') + '\r\n',
    );
  }
  return out.bytes();
}
