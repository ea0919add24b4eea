import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Issue 14 item 3: a full disk under the database. Writes that cannot be stored answer 503 with Retry-After and
 * leave nothing behind; when DuckDB invalidates the database (a checkpoint that cannot be written), the storage
 * reopens it instead of answering 500 until a restart; the health endpoint says which. The database lives on a
 * small tmpfs of its own (the test runs as root; it fails, not skips, when it cannot mount one).
 */

const P = '/v0/projects/disk';
let mountPoint: string;
let filler: string;
let t: TestApp;
let ada: Session;
let day = 0;

function mountTmpfs(): string {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-enospc-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    throw new Error(
      `the disk-full tests need a tmpfs of their own and could not mount one at ${dir} (${String((error as Error).message).trim()}); run them as root, or in a container with CAP_SYS_ADMIN`,
      { cause: error },
    );
  }
  return dir;
}

/** Fills the tmpfs until `leave` bytes are free (0: until the kernel refuses). */
function fill(leave: number): void {
  const fd = openSync(filler, 'a');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) {
      const { bavail, bsize } = statfsSync(mountPoint);
      const free = bavail * bsize;
      if (free <= leave) return;
      writeSync(fd, chunk, 0, Math.min(chunk.length, free - leave));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

const post = (hash: string) => {
  const start = new Date(Date.UTC(2026, 0, 1, 0, day++));
  return t.app.inject({
    method: 'POST',
    url: `${P}/reports`,
    headers: bearer(ada.token),
    payload: {
      branch: 'main',
      testbed: 'linux',
      hash,
      start_time: start.toISOString(),
      end_time: new Date(start.getTime() + 60_000).toISOString(),
      results: [JSON.stringify({ parse: { latency: { value: 100 + day } } })],
      settings: { adapter: 'json' },
    },
  });
};

const hashes = async (): Promise<string[]> => {
  const response = await t.app.inject({ method: 'GET', url: `${P}/reports?per_page=255` });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { branch: { head: { version: { hash: string } } } }[]).map(
    (report) => report.branch.head.version.hash,
  );
};

const health = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/v0/server/health' });
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json() };
};

beforeAll(async () => {
  mountPoint = mountTmpfs();
  filler = join(mountPoint, 'filler');
  // a checkpoint after every commit: the checkpoint that meets the full disk is what invalidates the database
  t = await createTestApp(
    { database: { file: join(mountPoint, 'db', 'benchtrack.db') } },
    { storage: { checkpoint_threshold: '1KB' } },
  );
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Disk' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  if (mountPoint) {
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

// About DuckDB's own file on a full disk (a checkpoint that invalidates the database, reopened by the storage);
// a full disk under a PostgreSQL server is that server's to handle.
describe.skipIf(onPostgres)('a full disk under the database', () => {
  const written: string[] = [];
  const refused: string[] = [];

  it('stores reports while there is space', async () => {
    const hash = randomBytes(20).toString('hex');
    expect((await post(hash)).statusCode).toBe(201);
    written.push(hash);
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', database: { status: 'ok' } } });
  });

  it('recovers by itself when a checkpoint cannot be written: never 500, reads and writes work again', async () => {
    // room for the WAL of a report, not for the checkpoint that follows it
    fill(96 * 1024);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const hash = randomBytes(20).toString('hex');
      const response = await post(hash);
      statuses.push(response.statusCode);
      if (response.statusCode === 201) written.push(hash);
      else {
        expect(response.statusCode, response.body).toBe(503);
        expect(response.headers['retry-after']).toMatch(/^\d+$/);
        expect(response.json().error_code).toBe('unavailable');
        expect(response.body).not.toContain(mountPoint);
        refused.push(hash);
      }
      const list = await t.app.inject({ method: 'GET', url: `${P}/reports` });
      expect([200, 503], list.body).toContain(list.statusCode);
    }
    // the database was invalidated at least once (a commit made durable, then its checkpoint failed) and reopened
    const after = await eventually(async () => {
      const h = await health();
      expect(h.body.database.reopened).toBeGreaterThanOrEqual(1);
      expect(h.body.database.status).not.toBe('reopening');
      return h;
    });
    expect(after.body.database.status).toMatch(/^(ok|disk_full)$/);
    expect(statuses).not.toContain(500);
  }, 60_000);

  it('refuses a write with 503 and Retry-After once nothing fits, stores nothing, and says so in the health', async () => {
    let hash = '';
    let response: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 6; i++) {
      fill(0);
      hash = randomBytes(20).toString('hex');
      response = await post(hash);
      if (response.statusCode !== 201) break;
      written.push(hash);
    }
    expect(response?.statusCode, response?.body).toBe(503);
    expect(response?.headers['retry-after']).toMatch(/^\d+$/);
    expect(response?.json().message).toMatch(/disk|storage failure/);
    refused.push(hash);
    const h = await health();
    expect(h.status).toBe(503);
    expect(h.retryAfter).toBe('5');
    expect(h.body.status).toBe('unavailable');
    expect(h.body.message).toMatch(/^database: (disk_full|reopening)$/);
    expect(JSON.stringify(h.body)).not.toContain(mountPoint);
  }, 60_000);

  it('serves again once space is freed: health ok, new reports stored, refused ones absent', async () => {
    rmSync(filler);
    const hash = randomBytes(20).toString('hex');
    const stored = await eventually(async () => {
      const response = await post(hash);
      expect(response.statusCode, response.body).toBe(201);
      return response;
    }, 20_000);
    expect(stored.statusCode).toBe(201);
    written.push(hash);
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', database: { status: 'ok' } } });
    const present = await hashes();
    for (const h of written) expect(present).toContain(h);
    for (const h of refused) expect(present).not.toContain(h);
  }, 60_000);
});
