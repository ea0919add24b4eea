/**
 * A JSON parser whose numbers are the doubles the reference (Rust, serde_json 1.0 without
 * `float_roundtrip`) computes, so JSON-sourced values match it bit for bit instead of within 1 ULP.
 *
 * serde_json accumulates up to 19-20 significant digits in a u64 (further digits are dropped and only move
 * the exponent), converts that integer to f64, then does one multiplication or division by a correctly
 * rounded power of ten (dividing by 1e308 first for exponents below -308). `JSON.parse` rounds correctly
 * instead, which differs in the last bit for some inputs (10 asserted values of the reference's own tests).
 *
 * Returns `undefined` for anything serde_json rejects: syntax errors, trailing characters, numbers out of
 * range, and nesting deeper than its recursion limit of 128.
 */
export function parseSerdeJson(text: string): unknown {
  const parser = new Parser(text);
  try {
    parser.skipSpace();
    const value = parser.value(0);
    parser.skipSpace();
    return parser.atEnd() ? value : undefined;
  } catch (error) {
    if (error === SYNTAX) return undefined;
    throw error;
  }
}

const SYNTAX = Symbol('json syntax error');
const MAX_DEPTH = 128;
const U64_MAX = 18446744073709551615n;
/** Correctly rounded 1e0 ... 1e308, the table serde_json multiplies or divides by. */
const POW10: readonly number[] = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

class Parser {
  #pos = 0;

  constructor(readonly text: string) {}

  atEnd(): boolean {
    return this.#pos === this.text.length;
  }

  skipSpace(): void {
    const { text } = this;
    let pos = this.#pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.#pos = pos;
  }

  value(depth: number): unknown {
    const c = this.text.charCodeAt(this.#pos);
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (this.text.startsWith('true', this.#pos)) return this.literal(4, true);
    if (this.text.startsWith('false', this.#pos)) return this.literal(5, false);
    if (this.text.startsWith('null', this.#pos)) return this.literal(4, null);
    throw SYNTAX;
  }

  literal<T>(length: number, value: T): T {
    this.#pos += length;
    return value;
  }

  object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw SYNTAX;
    this.#pos++;
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.#pos) === 0x7d) {
      this.#pos++;
      return out;
    }
    for (;;) {
      if (this.text.charCodeAt(this.#pos) !== 0x22) throw SYNTAX;
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.#pos) !== 0x3a) throw SYNTAX;
      this.#pos++;
      this.skipSpace();
      const value = this.value(depth);
      // A key named `__proto__` must stay data (as with JSON.parse); assignment would set the prototype.
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      } else out[key] = value;
      this.skipSpace();
      const c = this.text.charCodeAt(this.#pos++);
      if (c === 0x7d) return out;
      if (c !== 0x2c) throw SYNTAX;
      this.skipSpace();
    }
  }

  array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw SYNTAX;
    this.#pos++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.#pos) === 0x5d) {
      this.#pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipSpace();
      const c = this.text.charCodeAt(this.#pos++);
      if (c === 0x5d) return out;
      if (c !== 0x2c) throw SYNTAX;
      this.skipSpace();
    }
  }

  string(): string {
    const { text } = this;
    const start = this.#pos;
    let pos = start + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (Number.isNaN(c) || c < 0x20) throw SYNTAX;
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        pos += 2;
      } else pos++;
    }
    this.#pos = pos + 1;
    if (!escaped) return text.slice(start + 1, pos);
    try {
      return JSON.parse(text.slice(start, pos + 1)) as string;
    } catch {
      throw SYNTAX;
    }
  }

  number(): number {
    const { text } = this;
    const start = this.#pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    // Fast path: up to 15 significant digits are exact in a double, so serde_json's u64 significand and
    // the double agree; only the one multiplication or division by a power of ten remains.
    let significand = 0;
    let digits = 0;
    let fraction = 0;
    const first = text.charCodeAt(pos);
    if (first === 0x30) {
      pos++;
    } else if (first >= 0x31 && first <= 0x39) {
      for (let c = first; c >= 0x30 && c <= 0x39; c = text.charCodeAt(++pos)) {
        significand = significand * 10 + (c - 0x30);
        digits++;
      }
    } else throw SYNTAX;
    if (text.charCodeAt(pos) === 0x2e) {
      pos++;
      const fractionStart = pos;
      for (let c = text.charCodeAt(pos); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++pos)) {
        significand = significand * 10 + (c - 0x30);
      }
      fraction = pos - fractionStart;
      if (fraction === 0) throw SYNTAX;
      digits += fraction;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) return this.#slowNumber(start);
    this.#pos = pos;
    if (digits > 15) return this.#slowNumber(start);
    const negative = text.charCodeAt(start) === 0x2d;
    const value = fraction === 0 ? significand : significand / (POW10[fraction] as number);
    return negative ? -value : value;
  }

  /** The general case (exponents, long mantissas): re-read the token and follow serde_json step by step. */
  #slowNumber(start: number): number {
    const match = NUMBER.exec(this.text.slice(start, start + 4096));
    if (!match) throw SYNTAX;
    let token = match[0];
    if (token.length === 4096) token = (NUMBER.exec(this.text.slice(start)) as RegExpExecArray)[0];
    this.#pos = start + token.length;
    const value = serdeNumber(token);
    if (value === undefined) throw SYNTAX;
    return value;
  }
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/** The double serde_json produces for a JSON number token (grammar already checked); undefined = out of range. */
export function serdeNumber(token: string): number | undefined {
  const negative = token.charCodeAt(0) === 0x2d;
  const body = negative ? token.slice(1) : token;
  const ePos = body.search(/[eE]/);
  const mantissa = ePos === -1 ? body : body.slice(0, ePos);
  const dot = mantissa.indexOf('.');
  const intDigits = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const fracDigits = dot === -1 ? '' : mantissa.slice(dot + 1);
  // Integers that fit a u64/i64 are converted with `as f64`, which rounds correctly, like Number().
  if (dot === -1 && ePos === -1 && (intDigits.length < 20 || BigInt(intDigits) <= U64_MAX)) {
    const n = Number(intDigits);
    return negative ? -n : n;
  }
  const parts = significandOf(intDigits, fracDigits);
  let exponent = parts.exponent;
  if (ePos !== -1) {
    const exp = parseExponent(body.slice(ePos + 1));
    if (exp === 'overflow') {
      // serde_json: a huge negative exponent (or a zero significand) gives zero, a huge positive one an error.
      if (parts.significand !== 0 && body[ePos + 1] !== '-') return undefined;
      return negative ? -0 : 0;
    }
    exponent = Math.max(-2147483648, Math.min(2147483647, exponent + exp));
  }
  const value = fromParts(parts.significand, exponent);
  if (value === undefined) return undefined;
  return negative ? -value : value;
}

/**
 * The significand (as f64) and decimal exponent serde_json accumulates. Up to 15 digits the integer is exact
 * in a double; longer mantissas take the digit-by-digit u64 path, where an integer digit that would overflow
 * is dropped but counted in the exponent and a fraction digit that would overflow ends the significand.
 */
function significandOf(intDigits: string, fracDigits: string): { significand: number; exponent: number } {
  if (intDigits.length + fracDigits.length <= 15) {
    return { significand: Number(intDigits + fracDigits), exponent: -fracDigits.length };
  }
  let s = 0n;
  let exponent = 0;
  let overflowed = false;
  for (let i = 0; i < intDigits.length; i++) {
    const d = BigInt(intDigits.charCodeAt(i) - 0x30);
    if (overflowed || wouldOverflow(s, d)) {
      overflowed = true;
      exponent++;
    } else s = s * 10n + d;
  }
  for (let i = 0; i < fracDigits.length; i++) {
    const d = BigInt(fracDigits.charCodeAt(i) - 0x30);
    if (wouldOverflow(s, d)) break;
    s = s * 10n + d;
    exponent--;
  }
  return { significand: Number(s), exponent };
}

const U64_MAX_DIV_10 = U64_MAX / 10n;
const U64_MAX_MOD_10 = U64_MAX % 10n;

function wouldOverflow(s: bigint, digit: bigint): boolean {
  return s >= U64_MAX_DIV_10 && (s > U64_MAX_DIV_10 || digit > U64_MAX_MOD_10);
}

function parseExponent(text: string): number | 'overflow' {
  const negative = text[0] === '-';
  const digits = text[0] === '-' || text[0] === '+' ? text.slice(1) : text;
  const value = Number(digits);
  if (value > 2147483647) return 'overflow';
  return negative ? -value : value;
}

function fromParts(significand: number, exponent: number): number | undefined {
  let f = significand;
  let exp = exponent;
  for (;;) {
    const pow = POW10[Math.abs(exp)];
    if (pow !== undefined) {
      if (exp >= 0) {
        f *= pow;
        return Number.isFinite(f) ? f : undefined;
      }
      return f / pow;
    }
    if (f === 0) return f;
    if (exp >= 0) return undefined;
    f /= 1e308;
    exp += 308;
  }
}
