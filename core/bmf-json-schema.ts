import { z } from 'zod';
import { bmfSchema } from './bmf.js';
import shipped from './bmf.schema.json' with { type: 'json' };

/**
 * The BMF JSON Schema (draft-07) as shipped in the package (`core/bmf.schema.json`, copied to
 * `dist/core/` by the build). Custom harnesses validate their output against it; the API serves it.
 * Generated from {@link bmfSchema}; a test fails when the file is stale.
 */
export const BMF_JSON_SCHEMA: Readonly<Record<string, unknown>> = shipped;

/** Builds the JSON Schema from the zod schema (what `scripts/generate-bmf-schema.ts` writes). */
export function generateBmfJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(bmfSchema, { target: 'draft-07' }) as Record<string, unknown>;
}
