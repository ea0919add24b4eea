import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { uuidAt } from '../../../core/index.js';
import { UuidColumn } from '../shared/sql.js';
import { readColumns } from './columns.js';

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

describe('bulk column reads', () => {
  it('reads INTEGER, DOUBLE, VARCHAR and UUID columns across chunks, nulls included, as getItem reads them', async () => {
    const n = 5000;
    const sql = `SELECT (CASE WHEN i % 3 = 0 THEN NULL ELSE i * 7 - 9000 END)::INTEGER,
                        (CASE WHEN i % 5 = 1 THEN NULL ELSE i / 4 END)::DOUBLE,
                        i::INTEGER,
                        CASE WHEN i % 4 = 0 THEN NULL ELSE 'value number ' || i END,
                        u,
                        u::VARCHAR
                 FROM (SELECT i, CASE WHEN i < 3 THEN ['00000000-0000-0000-0000-000000000000',
                                                      'ffffffff-ffff-ffff-ffff-ffffffffffff',
                                                      '7fffffff-0000-8000-0000-00000000ffff'][i + 1]::UUID
                                      ELSE uuid() END AS u
                       FROM range(${n}) t(i)) ORDER BY i`;
    const result = await connection.run(sql);
    const chunks = await result.fetchAllChunks();
    expect(chunks.length).toBeGreaterThan(1);
    const expected = chunks.flatMap((chunk) => chunk.getRows());
    const ints = new Int32Array(n);
    const doubles = new Float64Array(n);
    const dense = new Int32Array(n);
    const strings = new Array<string | null>(n);
    const uuids = new UuidColumn(new Uint32Array(4 * n), n);
    readColumns(result, chunks, [ints, doubles, dense, strings, uuids]);
    expect(Array.from(ints)).toEqual(expected.map((row) => row[0] ?? 0));
    expect(Array.from(doubles)).toEqual(expected.map((row) => row[1] ?? Number.NaN));
    expect(Array.from(dense)).toEqual(expected.map((row) => row[2]));
    expect(strings).toEqual(expected.map((row) => row[3]));
    expect(Array.from({ length: n }, (_, i) => uuidAt(uuids.words, n, i))).toEqual(
      expected.map((row) => row[5]),
    );
  });

  it('refuses a column whose type does not match the array it is read into', async () => {
    const result = await connection.run('SELECT 1::BIGINT AS n, 2.5::DOUBLE AS x');
    const chunks = await result.fetchAllChunks();
    expect(() => readColumns(result, chunks, [new Int32Array(1), new Float64Array(1)])).toThrow(
      'column 0 (n) is BIGINT, not INTEGER',
    );
  });

  it('refuses a null UUID rather than inventing one', async () => {
    const result = await connection.run('SELECT NULL::UUID');
    const chunks = await result.fetchAllChunks();
    expect(() => readColumns(result, chunks, [new UuidColumn(new Uint32Array(4), 1)])).toThrow(/null UUID/);
  });
});
