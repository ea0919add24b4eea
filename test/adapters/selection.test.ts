import { describe, expect, it } from 'vitest';
import {
  adaptResults,
  ADAPTER_GROUPS,
  adapterNames,
  defineAdapter,
  MAGIC_ORDER,
  PluginRegistry,
  selectAdapter,
} from '../../core/index.js';
import { readFixture, registryWithBuiltins } from './corpus.js';

const registry = registryWithBuiltins();
const tool = (path: string) => readFixture(`bencher/tool_output/${path}`);

describe('selectAdapter', () => {
  it.each([
    ['iai', 'rust_iai'],
    ['hyperfine', 'shell_hyperfine'],
    ['iai_callgrind', 'rust_gungraun'],
    ['rust_iai_callgrind', 'rust_gungraun'],
    ['rust_bench', 'rust_bench'],
  ])('resolves %s to %s', (name, id) => {
    const selection = selectAdapter(registry, name);
    expect(selection.kind).toBe('adapter');
    expect(selection.adapters.map((a) => a.id)).toEqual([id]);
  });

  it('resolves language groups to their members in order', () => {
    expect(selectAdapter(registry, 'rust').adapters.map((a) => a.id)).toEqual([
      'rust_bench',
      'rust_criterion',
      'rust_iai',
      'rust_gungraun',
    ]);
    expect(selectAdapter(registry, 'js').kind).toBe('group');
  });

  it('tries every built-in in the reference order for magic', () => {
    const ids = selectAdapter(registry, 'magic').adapters.map((a) => a.id);
    expect(ids).toEqual(MAGIC_ORDER.flatMap((entry) => ADAPTER_GROUPS[entry] ?? [entry]));
    expect(ids[0]).toBe('json');
    expect(ids.at(-1)).toBe('shell_hyperfine');
  });

  it('reports which adapter matched', () => {
    expect(selectAdapter(registry, 'magic').parse(tool('ruby/benchmark/five.txt'), {})?.adapter.id).toBe(
      'ruby_benchmark',
    );
    expect(selectAdapter(registry, 'rust').parse(tool('rust/iai/two.txt'), {})?.adapter.id).toBe('rust_iai');
  });

  it('takes an empty BMF document as a result (json wins with no benchmarks)', () => {
    expect(selectAdapter(registry, 'magic').parse('{}', {})).toEqual({
      bmf: {},
      adapter: expect.objectContaining({ id: 'json' }),
    });
  });

  it('names every accepted name when the adapter is unknown', () => {
    expect(() => selectAdapter(registry, 'nope')).toThrow(
      /unknown adapter "nope"; use one of: json, .*hyperfine.*rust, .*magic/,
    );
    expect(adapterNames(registry)).toContain('iai_callgrind');
  });

  it('says which member of a group is missing', () => {
    expect(() => selectAdapter(new PluginRegistry(), 'cpp')).toThrow(/needs the adapter "cpp_catch2"/);
  });

  it('turns an adapter that throws into an error naming it', () => {
    const local = new PluginRegistry();
    local.register(
      defineAdapter({
        id: 'broken',
        description: 'throws',
        reads: 'nothing',
        parse() {
          throw new Error('boom');
        },
      }),
    );
    expect(() => selectAdapter(local, 'broken').parse('x', {})).toThrow('adapter "broken" failed: boom');
  });
});

describe('adaptResults', () => {
  const dart = selectAdapter(registry, 'dart_benchmark_harness');

  it('gives one iteration per results string', () => {
    const iterations = adaptResults(dart, ['A(RunTime): 1.0 us.', 'A(RunTime): 3.0 us.']);
    expect(iterations).toEqual([{ A: { latency: { value: 1000 } } }, { A: { latency: { value: 3000 } } }]);
  });

  it('folds iterations into one when asked', () => {
    expect(adaptResults(dart, ['A(RunTime): 1.0 us.', 'A(RunTime): 3.0 us.'], { fold: 'mean' })).toEqual([
      { A: { latency: { value: 2000 } } },
    ]);
  });

  it('fails naming the adapter, the results string and the average when nothing is found', () => {
    expect(() => adaptResults(dart, ['A(RunTime): 1.0 us.', 'nothing here'])).toThrow(
      'no benchmarks found in results 2 of 2 by adapter "dart_benchmark_harness"',
    );
    expect(() =>
      adaptResults(selectAdapter(registry, 'rust_bench'), [tool('rust/bench/many.txt')], { average: 'mean' }),
    ).toThrow('with average "mean"');
    expect(() => adaptResults(selectAdapter(registry, 'cpp'), ['x'])).toThrow(
      '(tried cpp_catch2, cpp_google)',
    );
  });
});
