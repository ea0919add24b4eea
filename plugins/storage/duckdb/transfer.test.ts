import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { duckdbTransfer } from './transfer.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-transfer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a DuckDB export', () => {
  it('holds the tables of the data: no scratch copy of compaction, no table of an attached database', async () => {
    const database = await Database.open({ file: join(root, 'source.db'), readers: 1 }, logger);
    try {
      await migrate(database.setupConnection, migrations, database.path);
      // what a compaction interrupted by a crash leaves, and a snapshot's target attached while it is taken
      await database.setupConnection.run('CREATE TABLE metric_compact AS SELECT * FROM metric');
      await database.setupConnection.run(`ATTACH '${join(root, 'other.db')}' AS other`);
      await database.setupConnection.run('CREATE TABLE other.main.stray (id INTEGER)');
      await database.setupConnection.run('CREATE TABLE other.main.metric (id INTEGER)');
      const batches: Record<string, number> = {};
      for await (const batch of duckdbTransfer(database).exportRows())
        batches[batch.table] = (batches[batch.table] ?? 0) + 1;
      expect(batches).toMatchObject({ metric: 1, report: 1 });
      expect(Object.keys(batches)).not.toContain('metric_compact');
      expect(Object.keys(batches)).not.toContain('stray');
      expect(Object.keys(batches)).not.toContain('schema_migration');
    } finally {
      await database.close();
    }
  });
});
