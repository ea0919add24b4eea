import type { DuckDBConnection } from '@duckdb/node-api';
import type { MetaReader, MetaWriter } from '../../../../kit/index.js';
import { anchorRead } from '../sql.js';

export function metaReader(connection: DuckDBConnection): MetaReader {
  return {
    async get(key) {
      await anchorRead(connection);
      const reader = await connection.runAndReadAll('SELECT value FROM server_meta WHERE key = $key', {
        key,
      });
      const value = reader.getRows()[0]?.[0];
      return typeof value === 'string' ? value : undefined;
    },
  };
}

export function metaWriter(connection: DuckDBConnection): MetaWriter {
  return {
    ...metaReader(connection),
    async set(key, value) {
      await connection.run(
        'INSERT INTO server_meta VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        { key, value },
      );
    },
  };
}
