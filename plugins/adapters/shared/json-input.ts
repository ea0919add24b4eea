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
  const result = schema.safeParse(value);
  return result.success ? result.data : null;
}
