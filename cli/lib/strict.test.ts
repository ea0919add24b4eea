import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unknownFields } from './strict.js';

describe('unknownFields', () => {
  const schema = z.object({
    uuid: z.string(),
    head: z.object({ version: z.object({ number: z.number() }).nullable() }),
    results: z.array(z.object({ value: z.number() })),
    context: z.record(z.string(), z.string()),
  });

  it('finds the fields a schema does not know, at any depth, and none in records', () => {
    const raw = {
      uuid: 'u',
      extra: 1,
      head: { version: { number: 1, spec: 'x' } },
      results: [{ value: 1 }, { value: 2, note: 'n' }],
      context: { anything: 'goes' },
    };
    expect(unknownFields(raw, schema.parse(raw))).toEqual(['extra', 'head.version.spec', 'results[1].note']);
  });

  it('finds nothing when the answer matches', () => {
    const raw = { uuid: 'u', head: { version: null }, results: [], context: {} };
    expect(unknownFields(raw, schema.parse(raw))).toEqual([]);
  });
});
