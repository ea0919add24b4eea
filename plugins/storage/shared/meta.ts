import type { MetaReader, MetaWriter } from '../../../kit/index.js';
import type { Db } from './sql.js';

export function metaReader(db: Db): MetaReader {
  return {
    async get(key) {
      const [row] = await db.query<{ value: string }>('SELECT value FROM server_meta WHERE key = $key', {
        key,
      });
      return row?.value;
    },
  };
}

export function metaWriter(db: Db): MetaWriter {
  return {
    ...metaReader(db),
    async set(key, value) {
      await db.execute(
        'INSERT INTO server_meta VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        { key, value },
      );
    },
  };
}
