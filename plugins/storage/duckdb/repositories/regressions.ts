import type { DuckDBConnection } from '@duckdb/node-api';
import type { EngineTables } from '../../shared/regressions.js';
import { query, type Params } from '../sql.js';
import { tableReader, tableWriter } from '../table.js';

/** The regression tables on DuckDB (plugins/storage/shared/regressions.ts has the repositories). */
export function regressionTables(connection: DuckDBConnection): EngineTables {
  return {
    reader: (table) => tableReader(connection, table),
    writer: (table) => tableWriter(connection, table),
    run: (sql, params) => query(connection, sql, params as Params),
    dialect: {
      int: (name) => `$${name}`,
      text: (name) => `$${name}`,
      inTexts: (expression, name) => `${expression} IN (SELECT unnest($${name}))`,
    },
  };
}
