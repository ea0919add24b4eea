import { InputError } from './errors.js';

/**
 * The one rule for every name a caller creates (organizations, projects, branches, testbeds, benchmarks,
 * measures and their units, users, API tokens, plot titles), whatever the path that creates it: a resource
 * route, a report that creates dimensions on the fly, or a run context. A name holds at least one visible
 * character and none of the characters that hide, reorder or corrupt what a reader sees.
 */

const FORBIDDEN: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /[\n\r\u2028\u2029]/u, what: 'a line break' },
  { pattern: /\p{Cc}/u, what: 'a control character (C0, DEL or C1)' },
  {
    pattern: /\p{Cs}/u,
    what: 'a lone surrogate (half of a UTF-16 pair; JSON \\ud800-\\udfff escapes must come in pairs)',
  },
  { pattern: /[\u202a-\u202e\u2066-\u2069\u061c]/u, what: 'a bidirectional override or isolate' },
  { pattern: /[\u200b-\u200f\u2060-\u2064\ufeff]/u, what: 'a zero-width or invisible character' },
  { pattern: /\ufffd/u, what: 'U+FFFD, the replacement for bytes that were not valid UTF-8' },
];

const ANY_FORBIDDEN = new RegExp(FORBIDDEN.map((f) => f.pattern.source).join('|'), 'gu');

/** `U+202E` for one code point (or lone surrogate). */
function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A character that shows: anything but whitespace, default-ignorable code points (fillers, joiners, variation
 * selectors, tag characters, ...), combining marks (they show only on a base), control, format, private-use and
 * unassigned code points, and the blank Braille pattern. A name needs one, so that every grapheme of a name
 * cannot be invisible, whatever new invisible characters Unicode adds to these classes.
 */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\p{C}\u2800]/u;

/** What is wrong with `name` under the name rule, or `undefined` when it is a valid name. */
export function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'must not be empty or only whitespace';
  for (const { pattern, what } of FORBIDDEN) {
    const match = pattern.exec(name);
    if (match) {
      const position = [...name.slice(0, match.index)].length + 1;
      return `must not contain ${what}: found ${codePoint(match[0])} at character ${position}; remove it`;
    }
  }
  if (!VISIBLE.test(name)) {
    const shown = [...name].slice(0, 8).map(codePoint).join(' ');
    return `must hold a visible character (a letter, digit, punctuation mark or symbol): it holds only ${shown}${[...name].length > 8 ? ' ...' : ''}, which do not show`;
  }
  return undefined;
}

/** A name for an error message: forbidden characters written as `\u{...}` so the message itself stays readable. */
export function printableName(name: string, max = 80): string {
  const cut = name.length > max ? `${name.slice(0, max - 3)}...` : name;
  return `"${cut.replace(ANY_FORBIDDEN, (c) => `\\u{${codePoint(c).slice(2)}}`)}"`;
}

/** Throws an InputError naming `field` (e.g. `benchmark name "sort" in results 1`) when `name` breaks the rule. */
export function checkName(field: string, name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new InputError(`${field} ${printableName(name)} ${problem}`);
}
