import type { z } from 'zod';
import { parseSerdeJson } from './serde-json.js';

/**
 * Decodes harness JSON with the reference's number semantics and checks it against the harness's schema;
 * `null` when it is not that harness's JSON. Output that does not start like JSON is rejected before any
 * parsing, which keeps `magic` cheap on text output.
 */
export function readJson<T>(output: string, schema: z.ZodType<T>): T | null {
  const start = output.search(/\S/);
  const first = start === -1 ? '' : output[start];
  if (first !== '{' && first !== '[') return null;
  const value = parseSerdeJson(output);
  if (value === undefined) return null;
  // An array fails if any element does, and zod reports every failing element: check the first one alone, so a
  // long array of something else (4 M characters: 5.6 s of issues) is refused at once. Our array schemas have
  // no length rules, so a first element that fails means the whole would.
  if (Array.isArray(value) && value.length > 1 && !schema.safeParse(value.slice(0, 1)).success) return null;
  const result = schema.safeParse(value);
  return result.success ? result.data : null;
}
