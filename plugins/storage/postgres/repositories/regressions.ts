import type { EngineTables } from '../../shared/regressions.js';
import { query, type Connection, type Params } from '../sql.js';
import { tableReader, tableWriter } from '../table.js';

/** The regression tables on PostgreSQL (plugins/storage/shared/regressions.ts has the repositories). */
export function regressionTables(connection: Connection): EngineTables {
  return {
    reader: (table) => tableReader(connection, table),
    writer: (table) => tableWriter(connection, table),
    run: (sql, params) => query(connection, sql, params as Params),
    dialect: {
      int: (name) => `$${name}::int`,
      text: (name) => `$${name}::text`,
      inTexts: (expression, name) => `${expression} = ANY($${name}::text[])`,
    },
  };
}
