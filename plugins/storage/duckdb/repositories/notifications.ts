import type { DuckDBConnection } from '@duckdb/node-api';
import type { NotificationEngine } from '../../shared/notifications.js';
import { query, type Params } from '../sql.js';
import { tableReader, tableWriter } from '../table.js';

/** The notification tables on DuckDB (plugins/storage/shared/notifications.ts has the repositories). */
export function notificationTables(connection: DuckDBConnection): NotificationEngine {
  return {
    reader: (table) => tableReader(connection, table),
    writer: (table) => tableWriter(connection, table),
    run: (sql, params) => query(connection, sql, params as Params),
    // one writer at a time: nothing else can take a row between a choice and its update
    dialect: { int: (name) => `$${name}`, time: (name) => `$${name}`, skipLocked: '' },
  };
}
