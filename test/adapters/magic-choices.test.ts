import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { selectAdapter, type AdapterSettings } from '../../core/index.js';
import { readFixture, registryWithBuiltins } from './corpus.js';

/**
 * What `magic` chose for every fixture of the shared corpus before the console formats were added
 * (magic-choices.json, generated from that code), with the average unset, `mean` and `median`. Reading more
 * formats must not change any of these choices.
 */
const choices = JSON.parse(readFileSync(new URL('magic-choices.json', import.meta.url), 'utf8')) as Record<
  string,
  [string | null, string | null, string | null]
>;
const SETTINGS: readonly AdapterSettings[] = [{}, { average: 'mean' }, { average: 'median' }];
const magic = selectAdapter(registryWithBuiltins(), 'magic');

describe('magic keeps its choice for every corpus fixture', () => {
  it('lists all 107 fixtures', () => {
    expect(Object.keys(choices)).toHaveLength(107);
  });

  it.each(Object.entries(choices))('%s', (file, expected) => {
    const output = readFixture(file);
    const chosen = SETTINGS.map((settings) => magic.parse(output, settings)?.adapter.id ?? null);
    expect(chosen).toEqual(expected);
  });
});
