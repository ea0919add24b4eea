/**
 * Text helpers shared by the line-based adapters. They reproduce the reference parsers' conventions
 * (Rust `str::lines`, nom's `space1`, numbers with thousands commas, the time units) so results match it
 * exactly.
 */

/** Splits like Rust `str::lines`: on `\n`, one trailing `\r` stripped, no empty last line after a final `\n`. */
export function lines(input: string): string[] {
  if (input === '') return [];
  const out = input.split('\n');
  if (out[out.length - 1] === '') out.pop();
  for (let i = 0; i < out.length; i++) {
    const line = out[i] as string;
    if (line.endsWith('\r')) out[i] = line.slice(0, -1);
  }
  return out;
}

/**
 * A decimal token as the reference reads it: `[0-9.,]+` with commas dropped; `null` when it is not a number
 * or is too large for a finite double (BMF numbers are finite).
 */
export function decimal(token: string): number | null {
  const digits = token.includes(',') ? token.replaceAll(',', '') : token;
  if (!/^(?:\d+\.?\d*|\.\d+)$/.test(digits)) return null;
  const value = Number(digits);
  return Number.isFinite(value) ? value : null;
}

/** An integer token `[0-9,]+` (commas dropped) that must fit an unsigned 64-bit integer, as f64. */
export function integer(token: string): number | null {
  const digits = token.includes(',') ? token.replaceAll(',', '') : token;
  if (!/^\d+$/.test(digits)) return null;
  if (digits.length >= 20 && BigInt(digits) > 18446744073709551615n) return null;
  return Number(digits);
}

/** Regex source of the time units, in the reference's order (`μ` U+03BC and `µ` U+00B5 both mean micro). */
export const TIME_UNIT = '(?:ps|ns|\u03bcs|\u00b5s|us|ms|s)';

const NANOS: Readonly<Record<string, number>> = {
  ps: 1 / 1000,
  ns: 1,
  '\u03bcs': 1000,
  '\u00b5s': 1000,
  us: 1000,
  ms: 1_000_000,
  s: 1_000_000_000,
};

const SECONDS: Readonly<Record<string, number>> = {
  ps: 1 / 1_000_000_000_000,
  ns: 1 / 1_000_000_000,
  '\u03bcs': 1 / 1_000_000,
  '\u00b5s': 1 / 1_000_000,
  us: 1 / 1_000_000,
  ms: 1 / 1000,
  s: 1,
};

export function isTimeUnit(unit: string): boolean {
  return Object.hasOwn(NANOS, unit);
}

/**
 * Latency in nanoseconds: `x * nanosPerUnit`, a single multiplication like the reference (so `323.90 ps` is
 * `0.32389999999999997`, not `0.3239`).
 */
export function nanos(x: number, unit: string): number {
  return x * (NANOS[unit] as number);
}

/** Throughput in operations per second: `x / secondsPerUnit`, a division like the reference. */
export function perSecond(x: number, unit: string): number {
  return x / (SECONDS[unit] as number);
}

/** Benchmark names are 1 to 1024 UTF-8 bytes; anything else is skipped, as the reference does. */
export function validName(name: string): boolean {
  if (name.length === 0) return false;
  // Most names are short ASCII; only count bytes when the length could be over the limit.
  return name.length <= 341 || Buffer.byteLength(name, 'utf8') <= 1024;
}

const SPACE_RUN = /[ \t]+/g;

/**
 * Finds the first split `name | suffix` of a line where `suffix` (a sticky regex anchored at the line end)
 * matches, with the name being everything before it, the way nom's `many_till(anychar, suffix)` does.
 * Suffixes start with spaces or tabs, so only the starts of whitespace runs are tried (`at` = 'space') or
 * the given character's positions; that keeps very long lines linear.
 */
export function splitAtSuffix(
  line: string,
  suffix: RegExp,
  at: 'space' | string = 'space',
): { name: string; match: RegExpExecArray } | null {
  const starts = at === 'space' ? whitespaceRunStarts(line) : charPositions(line, at);
  for (const start of starts) {
    suffix.lastIndex = start;
    const match = suffix.exec(line);
    if (match) return { name: line.slice(0, start), match };
  }
  return null;
}

function* whitespaceRunStarts(line: string): Generator<number> {
  SPACE_RUN.lastIndex = 0;
  for (let m = SPACE_RUN.exec(line); m; m = SPACE_RUN.exec(line)) yield m.index;
}

function* charPositions(line: string, char: string): Generator<number> {
  for (let i = line.indexOf(char); i !== -1; i = line.indexOf(char, i + 1)) yield i;
}

// Covers CSI (colours, cursor moves), OSC (titles, links) and two-character escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;

/** Removes ANSI escape sequences (colours in gungraun's output, for one). */
export function stripAnsi(input: string): string {
  return input.includes('\x1b') ? input.replace(ANSI, '') : input;
}

/**
 * The lines a terminal shows: ANSI escapes removed, and within a line only the text after its last carriage
 * return (progress bars and "Computing stats ..." redraw the line with `\r`, the final text wins).
 */
export function terminalLines(output: string): string[] {
  const all = lines(stripAnsi(output));
  if (!output.includes('\r')) return all;
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string;
    const cr = line.lastIndexOf('\r');
    if (cr !== -1) all[i] = line.slice(cr + 1);
  }
  return all;
}
