import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { Database } from './database.js';
import { snapshotTo } from './snapshot.js';

const root = mkdtempSync(join(tmpdir(), 'benchtrack-snapshot-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a snapshot DETACH leaves in its WAL file', () => {
  it('is checkpointed by an instance of its own that runs within the server’s memory limit', async () => {
    const log = join(root, 'snapshot.log');
    const logger = createLogger({
      name: 'test',
      log: { mode: 'file', level: 'debug', path: log, if_exists: 'truncate' },
    });
    const database = await Database.open(
      { file: join(root, 'source.db'), readers: 1, memory_limit: '300MiB' },
      logger,
    );
    const target = join(root, 'snapshot.db');
    try {
      await database.setupConnection.run(
        'CREATE TABLE schema_migration AS SELECT range AS version FROM range(1000)',
      );
      // DETACH then leaves the copy in the target's WAL, as it does when a transaction holds the target
      await database.setupConnection.run('PRAGMA disable_checkpoint_on_shutdown');
      await snapshotTo(database, target, () => Promise.resolve());
    } finally {
      await database.close();
    }
    expect(existsSync(`${target}.wal`)).toBe(false);
    const checkpointed = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'snapshot checkpointed by an instance of its own');
    // DuckDB's own default would be 80% of the machine's memory
    expect(checkpointed.map((entry) => entry.memory_limit)).toEqual(['300.0 MiB']);
    const copy = await DuckDBInstance.create(target);
    try {
      const rows = await (await copy.connect()).runAndReadAll('SELECT count(*) FROM schema_migration');
      expect(rows.getRows()).toEqual([[1000n]]);
    } finally {
      copy.closeSync();
    }
  });
});
