import { afterAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  perfCsv,
  perfJson,
  type PerfColumns,
  type PerfShapeInput,
  uuidWords,
} from '../core/index.js';
import { perfArrow } from '../core/perf/arrow.js';
import { INLINE_MAX_POINTS, JSON_INLINE_MAX_POINTS, shapePerf } from './shape-perf.js';
import { WorkerPool } from './pool.js';

const pool = new WorkerPool(createLogger({ name: 't', log: { mode: 'stderr_terminal', level: 'error' } }), {
  maxThreads: 1,
});
afterAll(() => pool.close());

function input(count: number): PerfShapeInput {
  const nan = () => new Float64Array(count).fill(Number.NaN);
  const columns: PerfColumns = {
    count,
    permutation: Int32Array.from({ length: count }, (_, i) => (i < count / 2 ? 0 : 1)),
    report: uuidWords(
      Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
    ),
    iteration: new Int32Array(count),
    start: Float64Array.from({ length: count }, (_, i) => Date.UTC(2026, 0, 1) + i * 60_000),
    end: Float64Array.from({ length: count }, (_, i) => Date.UTC(2026, 0, 1) + i * 60_000 + 1000),
    version: Int32Array.from({ length: count }, (_, i) => i),
    hash: Array.from({ length: count }, (_, i) => (i % 2 ? 'a'.repeat(40) : null)),
    uuid: uuidWords(
      Array.from({ length: count }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`),
    ),
    value: Float64Array.from({ length: count }, (_, i) => 100 + (i % 7) / 3),
    lower: nan(),
    upper: nan(),
    threshold: Int32Array.from({ length: count }, (_, i) => (i % 3 ? 1 : 0)),
    model: Int32Array.from({ length: count }, (_, i) => (i % 3 ? 2 : 0)),
    baseline: Float64Array.from({ length: count }, () => 100),
    lowerLimit: nan(),
    upperLimit: Float64Array.from({ length: count }, () => 103.5),
    alert: Array.from({ length: count }, (_, i) =>
      i % 100 === 5 ? `00000000-0000-4000-9000-${String(i).padStart(12, '0')}` : null,
    ),
    alertLimit: Array.from({ length: count }, (_, i) => (i % 100 === 5 ? 'upper' : null)),
    alertStatus: Array.from({ length: count }, (_, i) => (i % 100 === 5 ? 'active' : null)),
    alertModified: Float64Array.from({ length: count }, () => Date.UTC(2026, 1, 1)),
  };
  return {
    columns,
    prefixes: ['{"branch":{"name":"a"},', '{"branch":{"name":"b, c"},'],
    names: [
      ['main', 'linux', 'parse', 'Latency'],
      ['main', 'linux', 'sort, "quick"', 'Latency'],
    ],
    thresholds: { '1:2': '{"uuid":"t","model":{"test":"t_test"}}' },
    head: '{"project":{},"start_time":null,"end_time":null,"results":[',
  };
}

const text = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

describe('shapePerf', () => {
  it('builds valid JSON with every point, grouped by permutation', () => {
    const json = JSON.parse(text(perfJson(input(300))));
    expect(json.results).toHaveLength(2);
    expect(json.results[0].metrics).toHaveLength(150);
    const point = json.results[0].metrics[5];
    expect(point).toMatchObject({
      iteration: 0,
      version: { number: 5, hash: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
      metric: { lower_value: null, upper_value: null },
      threshold: { uuid: 't' },
      boundary: { baseline: 100, lower_limit: null, upper_limit: 103.5 },
      alert: { limit: 'upper', status: 'active', modified: '2026-02-01T00:00:00.000Z' },
    });
    expect(json.results[0].metrics[3]).toMatchObject({ threshold: null, boundary: null, alert: null });
    expect(JSON.parse(text(perfJson({ ...input(0) }))).results).toEqual([]);
  });

  it('writes names in UTF-8, however long, in JSON and CSV', () => {
    const long = `${'é'.repeat(40_000)} ünïcødé 基准 🚀`;
    const shaped = input(10);
    const withName = {
      ...shaped,
      prefixes: shaped.prefixes.map(() => `{"benchmark":${JSON.stringify(long)},`),
      names: shaped.names.map(() => ['main', 'linux', long, 'Latency'] as const),
    };
    expect(JSON.parse(text(perfJson(withName))).results[0].benchmark).toBe(long);
    expect(text(perfCsv(withName)).split('\r\n')[1]).toContain(`,${long},`);
  });

  it('shapes JSON of up to JSON_INLINE_MAX_POINTS points on the main thread, letting the event loop run between steps', async () => {
    const count = JSON_INLINE_MAX_POINTS;
    const sent = input(count);
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const shaped = await shapePerf(pool, sent, 'json');
    order.push('shaped');
    // no hop: the columns were not moved to a worker
    expect(sent.columns.value.byteLength).toBe(count * 8);
    expect(text(shaped)).toBe(text(perfJson(input(count))));
    // the event loop ran a timer before the last step
    expect(order).toEqual(['timer', 'shaped']);
  });

  it.each([
    ['json', 'all'],
    ['csv', 'all'],
    ['arrow', 'all'],
    ['arrow', 'plot'],
  ] as const)('gives the same %s (fields %s) in a worker as inline', async (format, fields) => {
    const count = (format === 'json' ? JSON_INLINE_MAX_POINTS : INLINE_MAX_POINTS) + 2000;
    const inline =
      format === 'json'
        ? perfJson(input(count))
        : format === 'csv'
          ? perfCsv(input(count))
          : perfArrow({ ...input(count), fields });
    const sent = { ...input(count), fields };
    const pooled = await shapePerf(pool, sent, format);
    expect(sent.columns.value.byteLength).toBe(0);
    expect(pooled.byteLength).toBeGreaterThan(count * 100);
    if (format === 'arrow') expect(Buffer.from(pooled).equals(Buffer.from(inline))).toBe(true);
    else expect(text(pooled)).toBe(text(inline));
  });
});
