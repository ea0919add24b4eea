import type { MetaReader, MetaWriter } from '../../../../kit/index.js';
import { execute, query, type Connection } from '../sql.js';

export function metaReader(connection: Connection): MetaReader {
  return {
    async get(key) {
      const [row] = await query<{ value: string }>(
        connection,
        'SELECT value FROM server_meta WHERE key = $key',
        {
          key,
        },
      );
      return row?.value;
    },
  };
}

export function metaWriter(connection: Connection): MetaWriter {
  return {
    ...metaReader(connection),
    async set(key, value) {
      await execute(
        connection,
        'INSERT INTO server_meta VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        { key, value },
      );
    },
  };
}
