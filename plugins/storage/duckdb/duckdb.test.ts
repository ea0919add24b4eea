import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, StorageError } from '../../../core/index.js';
import { describeStorageContract } from '../../../kit/testing.js';
import { duckdbStorage } from './index.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-duckdb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

describeStorageContract('duckdb', () => {
  const dir = join(root, `contract-${counter++}`);
  const file = join(dir, 'db', 'benchtrack.db');
  return {
    open: () => duckdbStorage.open({ file }, { logger }),
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
