import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBResult, type DuckDBVector } from '@duckdb/node-api';
import { UuidColumn, type Column } from '../shared/sql.js';

/**
 * Bulk reads of result columns into preallocated arrays (`DuckDBVector.getItem` costs 100-1,000 ns a value): a
 * numeric column of a chunk is one typed-array copy, a UUID column is read from its 128-bit integers, nulls are
 * patched only when a chunk has any, and text is decoded only for non-null values.
 */
type NumberColumn = Int32Array | Float64Array;

function typeOf(column: Column): DuckDBTypeId {
  if (column instanceof UuidColumn) return DuckDBTypeId.UUID;
  if (Array.isArray(column)) return DuckDBTypeId.VARCHAR;
  return column instanceof Float64Array ? DuckDBTypeId.DOUBLE : DuckDBTypeId.INTEGER;
}

/**
 * Reads the chunks of `result` into `columns` (one per result column, in order); absent numbers become NaN
 * (DOUBLE) or 0 (INTEGER). Throws when a result column's type does not match its array.
 */
export function readColumns(
  result: DuckDBResult,
  chunks: readonly DuckDBDataChunk[],
  columns: readonly Column[],
): void {
  columns.forEach((column, index) => {
    const expected = typeOf(column);
    const actual = result.columnTypeId(index);
    if (actual !== expected)
      throw new Error(
        `column ${index} (${result.columnName(index)}) is ${DuckDBTypeId[actual]}, not ${DuckDBTypeId[expected]}`,
      );
  });
  let row = 0;
  for (const chunk of chunks) {
    columns.forEach((column, index) => {
      if (column instanceof UuidColumn) copyUuids(chunk, index, column, row);
      else if (Array.isArray(column)) copyStrings(chunk, index, column, row);
      else copyNumbers(chunk, index, column, row);
    });
    row += chunk.rowCount;
  }
}

function copyNumbers(chunk: DuckDBDataChunk, index: number, out: NumberColumn, offset: number): void {
  const n = chunk.rowCount;
  if (n === 0) return;
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const bytes = duckdb.vector_get_data(vector, n * out.BYTES_PER_ELEMENT);
  const buffer = bytes.buffer as ArrayBuffer;
  out.set(
    out instanceof Float64Array
      ? new Float64Array(buffer, bytes.byteOffset, n)
      : new Int32Array(buffer, bytes.byteOffset, n),
    offset,
  );
  const validity = validityOf(vector, n);
  if (!validity) return;
  const absent = out instanceof Float64Array ? Number.NaN : 0;
  for (let i = 0; i < n; i++) if (!valid(validity, i)) out[offset + i] = absent;
}

/**
 * DuckDB keeps a UUID as a 128-bit integer: the low 64 bits (UUID bytes 8-15) first, then the high 64 bits
 * (bytes 0-7) with the sign bit flipped so that integer order is UUID order; both little-endian.
 */
function copyUuids(chunk: DuckDBDataChunk, index: number, out: UuidColumn, offset: number): void {
  const n = chunk.rowCount;
  if (n === 0) return;
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const validity = validityOf(vector, n);
  if (validity)
    for (let i = 0; i < n; i++)
      if (!valid(validity, i)) throw new Error(`column ${index} holds a null UUID; read it as text instead`);
  const bytes = duckdb.vector_get_data(vector, n * 16);
  const raw = new Uint32Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, n * 4);
  const { words, count } = out;
  for (let i = 0; i < n; i++) {
    const at = offset + i;
    words[at] = ((raw[4 * i + 3] as number) ^ 0x80000000) >>> 0;
    words[count + at] = raw[4 * i + 2] as number;
    words[2 * count + at] = raw[4 * i + 1] as number;
    words[3 * count + at] = raw[4 * i] as number;
  }
}

function copyStrings(chunk: DuckDBDataChunk, index: number, out: (string | null)[], offset: number): void {
  const n = chunk.rowCount;
  const validity = validityOf(duckdb.data_chunk_get_vector(chunk.chunk, index), n);
  let vector: DuckDBVector | undefined;
  for (let i = 0; i < n; i++) {
    if (validity && !valid(validity, i)) out[offset + i] = null;
    else out[offset + i] = (vector ??= chunk.getColumnVector(index)).getItem(i) as string;
  }
}

/** The validity mask (little-endian 64-bit words: value i at bit i % 8 of byte i / 8); none means no nulls. */
function validityOf(vector: duckdb.Vector, n: number): Uint8Array | null {
  return (duckdb.vector_get_validity(vector, Math.ceil(n / 64) * 8) as Uint8Array | null) ?? null;
}

const valid = (validity: Uint8Array, i: number) => ((validity[i >> 3] as number) & (1 << (i & 7))) !== 0;
