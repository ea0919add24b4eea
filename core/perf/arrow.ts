import {
  Dictionary,
  Float64,
  Int32,
  Schema,
  Table,
  tableToIPC,
  TimestampMillisecond,
  Uint16,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { uuidAt, type PerfShapeInput } from './shape.js';

/** Schema metadata key of the series' JSON (branch, testbed, benchmark, measure), indexed by the `series` column. */
export const ARROW_SERIES_KEY = 'benchtrack.series';

/**
 * The perf answer as an Arrow IPC stream, for notebooks (pyarrow, polars, DuckDB read it directly) and the
 * console's explorer: one row per point, timestamps as milliseconds, absent numbers as nulls. Repeated texts
 * (names, reports, hashes, alert words) are dictionary-encoded, so 255 series of the same 100 reports carry each
 * report's UUID once. `series` indexes the JSON array in the schema's `benchtrack.series` metadata, which holds
 * each series' branch, testbed, benchmark and measure as the JSON answer writes them.
 */
export function perfArrow(input: PerfShapeInput): Uint8Array {
  const c = input.columns;
  const dictionary = () => new Dictionary(new Utf8(), new Int32());
  const name = (k: number) => Array.from(c.permutation, (p) => input.names[p]?.[k] ?? null);
  const nullable = (values: Float64Array) =>
    vectorFromArray(
      Array.from(values, (v) => (Number.isNaN(v) ? null : v)),
      new Float64(),
    );
  const uuids = (words: Uint32Array) => Array.from({ length: c.count }, (_, i) => uuidAt(words, c.count, i));
  const table = new Table({
    series: vectorFromArray(Array.from(c.permutation), new Uint16()),
    branch: vectorFromArray(name(0), dictionary()),
    testbed: vectorFromArray(name(1), dictionary()),
    benchmark: vectorFromArray(name(2), dictionary()),
    measure: vectorFromArray(name(3), dictionary()),
    report: vectorFromArray(uuids(c.report), dictionary()),
    iteration: vectorFromArray(Array.from(c.iteration), new Int32()),
    start_time: vectorFromArray(Array.from(c.start), new TimestampMillisecond()),
    end_time: vectorFromArray(Array.from(c.end), new TimestampMillisecond()),
    version: vectorFromArray(Array.from(c.version), new Int32()),
    hash: vectorFromArray(c.hash, dictionary()),
    metric: vectorFromArray(uuids(c.uuid), new Utf8()),
    value: nullable(c.value),
    lower_value: nullable(c.lower),
    upper_value: nullable(c.upper),
    baseline: nullable(c.baseline),
    lower_limit: nullable(c.lowerLimit),
    upper_limit: nullable(c.upperLimit),
    alert_limit: vectorFromArray(c.alertLimit, dictionary()),
    alert_status: vectorFromArray(c.alertStatus, dictionary()),
  });
  // Each prefix is the JSON answer's series object up to its points: `{"branch":...,"measure":{...},`.
  const series = `[${input.prefixes.map((prefix) => `${prefix.slice(0, -1)}}`).join(',')}]`;
  const schema = new Schema(table.schema.fields, new Map([[ARROW_SERIES_KEY, series]]));
  return tableToIPC(new Table(schema, table.batches), 'stream');
}
