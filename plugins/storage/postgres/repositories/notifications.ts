import type { NotificationEngine } from '../../shared/notifications.js';
import { query, type Connection, type Params } from '../sql.js';
import { tableReader, tableWriter } from '../table.js';

/** The notification tables on PostgreSQL (plugins/storage/shared/notifications.ts has the repositories). */
export function notificationTables(connection: Connection): NotificationEngine {
  return {
    reader: (table) => tableReader(connection, table),
    writer: (table) => tableWriter(connection, table),
    run: (sql, params) => query(connection, sql, params as Params),
    dialect: {
      int: (name) => `$${name}::int`,
      time: (name) => `$${name}::timestamptz`,
      skipLocked: ' FOR UPDATE SKIP LOCKED',
    },
  };
}
