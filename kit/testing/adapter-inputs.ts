import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageInfo } from '../../core/index.js';

/**
 * Inputs of the adapter contract suite. The large ones are built once per process and shared by every
 * adapter tested in it, so the suite's cost is the parsing, not the generation.
 */

// shipped in the package (its `files`), so the suite reads the same real outputs in a plugin author's install
const CORPUS = join(packageInfo().root, 'test', 'fixtures', 'adapters');

/** A deterministic pseudo-random generator (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function garbage(length: number, seed: number, alphabet?: string): string {
  const next = random(seed);
  let out = '';
  for (let i = 0; i < length; i++) {
    out += alphabet
      ? alphabet[Math.floor(next() * alphabet.length)]
      : String.fromCharCode(Math.floor(next() * 0x10000));
  }
  return out;
}

let small: [string, string][] | undefined;

/** Small hostile inputs: empty, blank, binary and Unicode garbage, CRLF, ANSI escapes, lookalikes. */
export function smallInputs(): [string, string][] {
  small ??= [
    ['empty', ''],
    ['blank', ' \t\n\r\n\n\u00a0\u2028'],
    ['newlines', '\n'.repeat(1000)],
    [
      'binary garbage',
      garbage(64 * 1024, 1, Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('')),
    ],
    ['unicode garbage', garbage(64 * 1024, 2)],
    ['punctuation garbage', garbage(64 * 1024, 3, ' \t\n\r:[](){}<>|=+-*/%.,±µμ·"\\0123456789xnsmu')],
    [
      'CRLF corpus',
      corpusText()
        .slice(0, 256 * 1024)
        .replace(/\r?\n/g, '\r\n'),
    ],
    [
      'lone CR',
      corpusText()
        .slice(0, 64 * 1024)
        .replace(/\r?\n/g, '\r'),
    ],
    [
      'ANSI escapes',
      corpusText()
        .slice(0, 64 * 1024)
        .replace(/(\S+)/g, '\x1b[1;32m$1\x1b[0m'),
    ],
    ['broken ANSI', '\x1b[31'.repeat(1000) + '\x1b]8;;'.repeat(1000)],
    ['lookalike numbers', 'test a ... bench: 1.2.3 ns/iter (+/- ,)\nx 9'.concat('9'.repeat(400), ' ns/op\n')],
    [
      'JSON lookalikes',
      '{"benchmarks": [], "context": {}}\n[{"benchmark": 1}]\n{"results": null}\n{"a": {"b": {}}}',
    ],
    ['deep JSON', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['huge numbers', '{"a": {"latency": {"value": 1e999}}}'],
  ];
  return small;
}

let long: [string, string][] | undefined;

/** Single lines of a few million characters, shaped to trip backtracking or quadratic scans. */
export function longLines(): [string, string][] {
  const size = 4 * 1024 * 1024;
  const repeat = (unit: string) => unit.repeat(Math.ceil(size / unit.length));
  long ??= [
    ['letters', repeat('a')],
    ['spaces', repeat(' ')],
    ['tabs and spaces then a suffix', `${repeat(' \t')}x 1 ops/sec ±1% (2 runs sampled)`],
    ['words', repeat('word ')],
    ['digits and commas', repeat('1,')],
    ['colons', repeat('a::b:: ')],
    ['gungraun-like names without metrics', repeat('a::b::c\n')],
    ['open braces', repeat('{')],
    ['open brace lines', repeat('{\n')],
    ['dashes', repeat('-')],
    ['x markers', repeat(' x 1')],
    ['time markers', repeat(': 1ms')],
    ['one-line JSON array', `[${repeat('1.5e3,"s\\n",')}0]`],
    ['one-line JSON object', `{${repeat('"k":{"value":1},')}"z":{}}`],
  ];
  return long;
}

let big: string | undefined;

/** About 50 MB (UTF-8) of real harness output: the whole corpus, repeated. */
export function bigInput(): string {
  if (big !== undefined) return big;
  const corpus = corpusText();
  const bytes = Buffer.byteLength(corpus, 'utf8');
  big = corpus.repeat(Math.ceil((50 * 1024 * 1024) / bytes));
  return big;
}

let corpus: string | undefined;

/** Every fixture of the corpus, concatenated (text and JSON alike: real output mixed as in a CI log). */
export function corpusText(): string {
  corpus ??= files(CORPUS)
    .filter((file) => !file.endsWith('LICENSE') && !/LICENSE|README|EXPECTED/.test(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return corpus;
}

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}
