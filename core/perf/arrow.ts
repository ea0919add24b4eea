import { Float64, Int32, Table, tableToIPC, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow';
import { uuidAt, type PerfShapeInput } from './shape.js';

/**
 * The perf answer as an Arrow IPC stream, for notebooks (pyarrow, polars, DuckDB read it directly): one row per
 * point, timestamps as milliseconds, absent numbers as nulls.
 */
export function perfArrow(input: PerfShapeInput): Uint8Array {
  const c = input.columns;
  const name = (k: number) => Array.from(c.permutation, (p) => input.names[p]?.[k] ?? null);
  const nullable = (values: Float64Array) =>
    vectorFromArray(
      Array.from(values, (v) => (Number.isNaN(v) ? null : v)),
      new Float64(),
    );
  const uuids = (words: Uint32Array) => Array.from({ length: c.count }, (_, i) => uuidAt(words, c.count, i));
  const table = new Table({
    branch: vectorFromArray(name(0), new Utf8()),
    testbed: vectorFromArray(name(1), new Utf8()),
    benchmark: vectorFromArray(name(2), new Utf8()),
    measure: vectorFromArray(name(3), new Utf8()),
    report: vectorFromArray(uuids(c.report), new Utf8()),
    iteration: vectorFromArray(Array.from(c.iteration), new Int32()),
    start_time: vectorFromArray(Array.from(c.start), new TimestampMillisecond()),
    end_time: vectorFromArray(Array.from(c.end), new TimestampMillisecond()),
    version: vectorFromArray(Array.from(c.version), new Int32()),
    hash: vectorFromArray(c.hash, new Utf8()),
    metric: vectorFromArray(uuids(c.uuid), new Utf8()),
    value: nullable(c.value),
    lower_value: nullable(c.lower),
    upper_value: nullable(c.upper),
    baseline: nullable(c.baseline),
    lower_limit: nullable(c.lowerLimit),
    upper_limit: nullable(c.upperLimit),
    alert_limit: vectorFromArray(c.alertLimit, new Utf8()),
    alert_status: vectorFromArray(c.alertStatus, new Utf8()),
  });
  return tableToIPC(table, 'stream');
}
