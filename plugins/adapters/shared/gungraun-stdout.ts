import type { Bmf, BmfMetric } from '../../../kit/index.js';
import { STDOUT_TOOLS, slugOf } from './gungraun-measures.js';
import { ResultsBuilder } from './results.js';
import { decimal, stripAnsi } from './text.js';

const NUM = '[0-9.,]+';
const INF = '(?:\\++|-+)inf(?:\\++|-+)';
// `  <Name>: <current>|<previous or N/A> (<change>) [<factor>]`, then one or more line breaks.
const METRIC = new RegExp(
  `[ \\t]+(?=[^ \\t])([^:\\r\\n]+):[ \\t]+(${NUM})\\|(?:N/A[ \\t]+\\(\\*+\\)|(${NUM})[ \\t]*(?:\\(No change\\)|\\((?:${INF}|[+-](${NUM})%)\\)[ \\t]+\\[(?:${INF}|[+-](${NUM})x)\\]))[\\r\\n]+`,
  'y',
);
const TOOL_HEADER = /[ \t]+=+ ([A-Z]+) =+[\r\n]+/y;
// `segment::segment::rest`, the first two segments without colons or whitespace.
const NAME_START = /[^:\r\n \t]+::[^:\r\n \t]+::/y;

/**
 * Parses Gungraun's console output (ANSI escapes removed): a benchmark id `a::b::rest`, which may wrap over
 * several lines until a line starting with two spaces, followed by metric lines, optionally grouped under
 * `===== TOOL =====` headers. Mirrors the reference parser, including that an id with no metric lines is
 * still a benchmark (with no measures).
 */
export function parseGungraunStdout(output: string): Bmf | null {
  return new StdoutParser(stripAnsi(output)).run();
}

class StdoutParser {
  readonly #results = new ResultsBuilder();
  /** Cache of the next `\n  ` (name end) at or after the last query, so repeated searches stay linear. */
  #nameEnd = -2;

  constructor(readonly text: string) {}

  run(): Bmf | null {
    const { text } = this;
    let pos = 0;
    while (pos < text.length) {
      const next = this.#benchmark(pos);
      if (next !== null) {
        pos = next;
        continue;
      }
      // An unrelated line (or a run of line breaks) is skipped.
      pos = skipBreaks(text, lineEnd(text, pos));
    }
    return this.#results.build();
  }

  /** Parses one benchmark at `pos`; returns the position after it, or null when there is none. */
  #benchmark(pos: number): number | null {
    NAME_START.lastIndex = pos;
    if (!NAME_START.test(this.text)) return null;
    const end = this.#findNameEnd(NAME_START.lastIndex);
    if (end <= NAME_START.lastIndex) return null;
    const name = this.text.slice(pos, end).trim();
    const measures: [string, BmfMetric][] = [];
    let at = end + 1;
    for (let section = this.#section(at, measures); section !== null; section = this.#section(at, measures)) {
      at = section;
    }
    this.#results.benchmark(name, measures);
    return at;
  }

  /** One tool section: an optional header (required except for Callgrind) and at least one metric line. */
  #section(pos: number, measures: [string, BmfMetric][]): number | null {
    TOOL_HEADER.lastIndex = pos;
    const header = TOOL_HEADER.exec(this.text);
    const tool = header ? (header[1] as string) : 'CALLGRIND';
    const table = STDOUT_TOOLS[tool];
    if (!table) return null;
    let at = header ? TOOL_HEADER.lastIndex : pos;
    let count = 0;
    for (;;) {
      METRIC.lastIndex = at;
      const m = METRIC.exec(this.text);
      if (!m || !numbersValid(m)) break;
      const slug = slugOf(table, m[1] as string);
      if (slug !== undefined) measures.push([slug, { value: decimal(m[2] as string) as number }]);
      at = METRIC.lastIndex;
      count++;
    }
    return count > 0 ? at : null;
  }

  #findNameEnd(from: number): number {
    if (this.#nameEnd === -1) return -1;
    if (this.#nameEnd < from) this.#nameEnd = this.text.indexOf('\n  ', from);
    return this.#nameEnd;
  }
}

function numbersValid(m: RegExpExecArray): boolean {
  return [2, 3, 4, 5].every((i) => m[i] === undefined || decimal(m[i]) !== null);
}

function lineEnd(text: string, pos: number): number {
  for (let i = pos; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i;
  }
  return text.length;
}

function skipBreaks(text: string, pos: number): number {
  let i = pos;
  while (i < text.length && (text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d)) i++;
  return i;
}
