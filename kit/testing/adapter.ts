import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import {
  parseBmf,
  PluginRegistry,
  type AdapterPlugin,
  type AdapterSettings,
  type Bmf,
} from '../../core/index.js';
import { bigInput, longLines, smallInputs } from './adapter-inputs.js';

export interface AdapterContractOptions {
  /** Output the adapter reads (or several): it must find benchmarks in each, and the same with CRLF line endings. */
  readonly sample?: string | readonly string[];
  /** Seconds allowed for the 50 MB input (default 20, generous for a shared 2-core CI machine). */
  readonly bigInputSeconds?: number;
}

const SETTINGS: readonly AdapterSettings[] = [{}, { average: 'mean' }, { average: 'median' }];

/**
 * The contract every adapter passes, built-in or third-party: a valid plugin; for empty input, whitespace,
 * garbage, CRLF, ANSI escapes, very long lines and 50 MB of output it returns valid BMF or `null` (never
 * throws, never hangs); it is deterministic; and it reads its own sample, with LF or CRLF line endings alike.
 */
export function describeAdapterContract(plugin: AdapterPlugin, options: AdapterContractOptions = {}): void {
  describe(`adapter contract: ${plugin.id}`, () => {
    it('is a valid adapter plugin', () => {
      const registered = new PluginRegistry().register(plugin);
      expect(registered.plugin.kind).toBe('adapter');
      expect(plugin.reads.length).toBeGreaterThan(0);
    });

    it('gives BMF or null for empty, garbage, CRLF and ANSI input, whatever the average', () => {
      for (const [name, input] of smallInputs()) {
        for (const settings of SETTINGS) expectBmfOrNull(plugin, input, settings, name);
      }
    });

    it('gives BMF or null for any string (property)', () => {
      const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ maxLength: 400 }));
      fc.assert(
        fc.property(text, (input) => {
          expectBmfOrNull(plugin, input, {}, 'arbitrary string');
        }),
        { numRuns: 300, seed: 42 },
      );
    });

    // These two bound their own time; vitest's timeout (5 s unless the author's configuration says otherwise)
    // must not cut them short first, so each gets room for its inputs' generation besides its bound.
    it('stays linear on very long lines', { timeout: 120_000 }, () => {
      for (const [name, input] of longLines()) {
        const seconds = timed(() => expectBmfOrNull(plugin, input, {}, name));
        expect(seconds, `${name}: ${(input.length / 1e6).toFixed(1)} M chars`).toBeLessThan(5);
      }
    });

    const bigInputSeconds = options.bigInputSeconds ?? 20;
    it('reads 50 MB of output without failing or hanging', { timeout: (bigInputSeconds + 60) * 1000 }, () => {
      const input = bigInput();
      const seconds = timed(() => expectBmfOrNull(plugin, input, {}, '50 MB'));
      expect(seconds).toBeLessThan(bigInputSeconds);
    });

    const samples = options.sample === undefined ? [] : [options.sample].flat();
    samples.forEach((sample, index) => {
      const which = samples.length > 1 ? ` ${index + 1}` : '';
      it(`reads its sample${which}, deterministically, with LF or CRLF line endings`, () => {
        const lf = sample.replace(/\r\n/g, '\n');
        const first = plugin.parse(lf, {});
        expect(first, 'no benchmarks found in the sample').not.toBeNull();
        expect(Object.keys(first ?? {}).length).toBeGreaterThan(0);
        expect(plugin.parse(lf, {})).toEqual(first);
        expect(plugin.parse(lf.replace(/\n/g, '\r\n'), {})).toEqual(first);
      });
    });
  });
}

function expectBmfOrNull(
  plugin: AdapterPlugin,
  input: string,
  settings: AdapterSettings,
  name: string,
): void {
  let result: Bmf | null;
  try {
    result = plugin.parse(input, settings);
  } catch (error) {
    throw new Error(
      `${plugin.id} threw on ${name} (${JSON.stringify(settings)}): ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (result === null) return;
  const checked = parseBmf(result);
  if (!checked.success)
    throw new Error(`${plugin.id} returned invalid BMF on ${name}: ${checked.errors.join('; ')}`);
}

function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return (performance.now() - start) / 1000;
}
