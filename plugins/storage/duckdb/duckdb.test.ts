import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, StorageError } from '../../../core/index.js';
import { describeStorageContract } from '../../../kit/testing.js';
import { insertUser } from '../../../kit/testing/storage/fixtures.js';
import { copyMigratedDuckdb } from '../../../test/helpers/duckdb-template.js';
import { DEFAULT_MEMORY_LIMIT, duckdbStorage } from './index.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-duckdb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

describeStorageContract('duckdb', () => {
  const dir = join(root, `contract-${counter++}`);
  const file = join(dir, 'db', 'benchtrack.db');
  return {
    open: () => duckdbStorage.open({ file }, { logger }),
    // a copy of a migrated file, except in the tests of migrations
    openMigrated: async () => {
      await copyMigratedDuckdb(file);
      return duckdbStorage.open({ file }, { logger });
    },
    reopen: () => duckdbStorage.open({ file }, { logger }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('duckdb storage location', () => {
  it('creates missing directories', async () => {
    const file = join(root, 'a', 'b', 'c', 'benchtrack.db');
    const storage = await duckdbStorage.open({ file }, { logger });
    expect(existsSync(file)).toBe(true);
    await storage.close();
  });

  it('names the path and the fix when the directory cannot be created', async () => {
    const blocker = join(root, 'not-a-directory');
    writeFileSync(blocker, 'x');
    const file = join(blocker, 'data', 'benchtrack.db');
    const error = await duckdbStorage.open({ file }, { logger }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toContain(
      `cannot create the database directory ${join(blocker, 'data')}`,
    );
    expect((error as Error).message).toContain('set database.file to a path this user can write');
  });

  it('refuses a second instance of the same file in one process', async () => {
    const file = join(root, 'once.db');
    const storage = await duckdbStorage.open({ file }, { logger });
    await expect(duckdbStorage.open({ file }, { logger })).rejects.toThrow('is already open in this process');
    await storage.close();
    const again = await duckdbStorage.open({ file }, { logger });
    await again.close();
  });

  it('folds the WAL into the file on close, unless checkpoint_on_close is false; the WAL is replayed then', async () => {
    const file = join(root, 'wal.db');
    await copyMigratedDuckdb(file);
    const walBytes = () => (existsSync(`${file}.wal`) ? readFileSync(`${file}.wal`).length : 0);
    const throwaway = await duckdbStorage.open({ file, checkpoint_on_close: false }, { logger });
    await throwaway.transaction((tx) => insertUser(tx, 'wal-1'));
    await throwaway.close();
    expect(walBytes()).toBeGreaterThan(0);

    const reopened = await duckdbStorage.open({ file }, { logger });
    expect(await reopened.read((r) => r.users.find({ slug: 'wal-1' }))).toMatchObject({ name: 'wal-1' });
    await reopened.transaction((tx) => insertUser(tx, 'wal-2'));
    await reopened.close();
    expect(walBytes()).toBe(0);
    const last = await duckdbStorage.open({ file }, { logger });
    expect(await last.read((r) => r.users.count({}))).toBe(2);
    await last.close();
  });

  it('explains a database locked by another process', async () => {
    const file = join(root, 'locked.db');
    const holder = spawn(
      process.execPath,
      [
        '-e',
        // the instance stays referenced: once collected, its lock on the file goes with it
        `import('@duckdb/node-api').then(async ({ DuckDBInstance }) => {
           globalThis.holder = await DuckDBInstance.create(${JSON.stringify(file)});
           process.stdout.write('ready\\n');
           setInterval(() => {}, 1000);
         })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(holder.stdout!, 'data');
    try {
      await expect(duckdbStorage.open({ file }, { logger })).rejects.toThrow(/in use by another process/);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('duckdb memory limit', () => {
  /** The memory_limit DuckDB reports when the storage opens, as logged. */
  async function openedWith(options: { memory_limit?: string }): Promise<unknown> {
    const log = join(root, `open-${counter++}.log`);
    const fileLogger = createLogger({
      name: 'test',
      log: { mode: 'file', level: 'info', path: log, if_exists: 'truncate' },
    });
    const storage = await duckdbStorage.open(
      { file: join(root, `limit-${counter++}.db`), ...options },
      { logger: fileLogger },
    );
    await storage.close();
    const opened = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.msg === 'database opened');
    return opened?.memory_limit;
  }

  it('opens the engine with the memory_limit it is given', async () => {
    expect(await openedWith({ memory_limit: '300MiB' })).toBe('300.0 MiB');
  });

  it('caps the engine at 1GiB unless told otherwise', async () => {
    expect(DEFAULT_MEMORY_LIMIT).toBe('1GiB');
    expect(await openedWith({})).toBe('1.0 GiB');
  });

  it('refuses a memory_limit DuckDB would not read', async () => {
    await expect(openedWith({ memory_limit: 'lots' })).rejects.toThrow('memory_limit must look like 1GiB');
  });
});
