import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { tablesOf } from './cache.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { duckDb, query } from './sql.js';

describe('which statements the cache may answer', () => {
  it.each([
    ['SELECT * FROM "project" WHERE "slug" = $w_slug LIMIT 1', ['project']],
    [
      'WITH ks AS (SELECT unnest($keys) AS k) SELECT * FROM "benchmark" WHERE name IN (SELECT k FROM ks)',
      ['benchmark'],
    ],
    [
      'WITH want AS (SELECT unnest($b) AS benchmark_id) SELECT s.id FROM series s JOIN want USING (benchmark_id)',
      ['series'],
    ],
    ['SELECT * FROM threshold t JOIN model m ON m.id = t.model_id', ['threshold', 'model']],
    // ingest looks up the project's webhooks for every report
    ['SELECT * FROM "webhook" WHERE "project_id" = $w_project_id', ['webhook']],
  ])('caches %s', (sql, tables) => {
    expect(tablesOf(sql)).toEqual(tables);
  });

  it.each([
    'SELECT v.* FROM version v JOIN head_version hv ON hv.version_id = v.id',
    'SELECT * FROM metric WHERE id = 1',
    'SELECT * FROM project WHERE created < now()',
    'SELECT uuid() FROM project',
    'SELECT 1',
    'INSERT INTO project (name) VALUES ($n) RETURNING *',
    'WITH x AS (DELETE FROM project RETURNING id) SELECT * FROM x',
  ])('does not cache %s', (sql) => {
    expect(tablesOf(sql)).toBeUndefined();
  });
});

/** A migrated database with one organization (id 1, "Acme"), closed and removed after the suite. */
function organizationDatabase(readers: number): () => Database {
  const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
  const root = mkdtempSync(join(tmpdir(), 'benchtrack-cache-'));
  let database: Database;
  beforeAll(async () => {
    database = await Database.open({ file: join(root, 'cache.db'), readers }, logger);
    await migrate(database.setupConnection, migrations, database.path);
    await database.write((c) =>
      duckDb(c).execute(
        `INSERT INTO organization (uuid, name, slug, claimed, created, modified)
         VALUES (uuid(), 'Acme', 'acme', now()::TIMESTAMP, now()::TIMESTAMP, now()::TIMESTAMP)`,
      ),
    );
  });
  afterAll(async () => {
    await database.close();
    rmSync(root, { recursive: true, force: true });
  });
  return () => database;
}

describe('the cache on the writer', () => {
  const db = organizationDatabase(1);
  const FIND = 'SELECT name FROM "organization" WHERE "id" = $id';
  const name = () => db().write((c) => query<{ name: string }>(c, FIND, { id: 1 }));
  const rename = (to: string) =>
    db().write((c) => duckDb(c).execute('UPDATE "organization" SET name = $name WHERE id = 1', { name: to }));

  it('answers a repeated read from memory, and a committed write replaces it', async () => {
    expect(await name()).toEqual([{ name: 'Acme' }]);
    const { hits } = db().cache.stats;
    expect(await name()).toEqual([{ name: 'Acme' }]);
    expect(db().cache.stats.hits).toBe(hits + 1);
    await rename('Acme Corp');
    expect(await name()).toEqual([{ name: 'Acme Corp' }]);
  });

  it('shows a transaction its own writes, and forgets them when it rolls back', async () => {
    await name();
    const failed = db().write(async (c) => {
      await duckDb(c).execute(`UPDATE "organization" SET name = 'Inside' WHERE id = 1`);
      expect(await query(c, FIND, { id: 1 })).toEqual([{ name: 'Inside' }]);
      throw new Error('roll back');
    });
    await expect(failed).rejects.toThrow('roll back');
    expect(await name()).toEqual([{ name: 'Acme Corp' }]);
  });

  it('sees writes made outside sql.ts, and forgets everything after a write it cannot place', async () => {
    await name();
    await db().write((c) => c.run(`UPDATE "organization" SET name = 'Raw' WHERE id = 1`));
    expect(await name()).toEqual([{ name: 'Raw' }]);
    await db().write(async (c) => {
      await c.run(`CREATE TEMP TABLE scratch AS SELECT 1 AS x`);
      expect(await query(c, FIND, { id: 1 })).toEqual([{ name: 'Raw' }]);
      expect(db().cache.stats.entries).toBeGreaterThan(0);
    });
    expect(db().cache.stats.entries).toBe(0);
  });

  it('hands out answers that cannot be changed by accident', async () => {
    const [row] = await name();
    expect(() => Object.assign(row as object, { name: 'x' })).toThrow(TypeError);
  });

  it.each(['runAndReadAll', 'streamAndReadAll', 'startThenReadAll', 'startStreamThenReadAll'] as const)(
    "sees a write made through the connection's %s",
    async (method) => {
      await name();
      await db().write((c) => c[method](`UPDATE "organization" SET name = '${method}' WHERE id = 1`));
      expect(await name()).toEqual([{ name: method }]);
    },
  );

  it('serves a read what the writer read', async () => {
    await rename('Read');
    await name();
    const { hits, misses } = db().cache.stats;
    expect(await db().read((c) => query(c, FIND, { id: 1 }))).toEqual([{ name: 'Read' }]);
    expect(db().cache.stats).toMatchObject({ hits: hits + 1, misses });
  });
});

describe('the cache on the reader connections', () => {
  const db = organizationDatabase(2);
  const FIND = 'SELECT name FROM "organization" WHERE "id" = $id';
  const VERSIONS = 'SELECT count(*)::INTEGER AS n FROM version';
  const name = (c: DuckDBConnection) =>
    query<{ name: string }>(c, FIND, { id: 1 }).then((rows) => rows[0]?.name);
  const versions = (c: DuckDBConnection) => query<{ n: number }>(c, VERSIONS).then((rows) => rows[0]?.n);
  /** Renames the organization and adds a version (a table the cache does not hold) in one commit. */
  const change = (to: string) =>
    db().write(async (c) => {
      await duckDb(c).execute('UPDATE "organization" SET name = $name WHERE id = 1', { name: to });
      await duckDb(c).execute(
        `INSERT INTO version (uuid, project_id, number, created) VALUES (uuid(), 1, 1, now()::TIMESTAMP)`,
      );
    });
  /** A read that runs `first`, waits for `gate`, then runs `then`: a commit can be placed in the middle. */
  function pausedRead<A, B>(
    first: (c: DuckDBConnection) => Promise<A>,
    gate: Promise<void>,
    then: (c: DuckDBConnection) => Promise<B>,
  ) {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const result = db().read(async (c) => {
      const a = await first(c);
      started();
      await gate;
      return [a, await then(c)] as const;
    });
    return { running, result };
  }

  it('answers repeated reads from memory until a commit changes what they read', async () => {
    expect(await db().read(name)).toBe('Acme');
    const { hits } = db().cache.stats;
    expect(await db().read(name)).toBe('Acme');
    expect(db().cache.stats.hits).toBe(hits + 1);
    await change('Acme Corp');
    expect(await db().read(name)).toBe('Acme Corp');
  });

  it('never keeps the answer of a snapshot older than the last commit', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // the read's snapshot is taken before the commit; its first look at the name comes after it
    const paused = pausedRead(versions, gate, name);
    await paused.running;
    await change('Newer');
    open();
    const [, seen] = await paused.result;
    expect(seen).not.toBe('Newer'); // its snapshot is older than the rename
    expect(await db().read(name)).toBe('Newer'); // and that old answer was not kept for later reads
  });

  /**
   * A read of the organization's name (from the cache) then of the version count, with `between` run in the middle;
   * what it saw, and how many times it ran.
   */
  async function nameThenVersions(between: () => Promise<unknown>) {
    await db().read(name); // cached now
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let runs = 0;
    const paused = pausedRead(
      (c) => {
        runs += 1;
        return name(c);
      },
      gate,
      versions,
    );
    await paused.running;
    await between();
    open();
    return { seen: await paused.result, runs };
  }

  it('gives a read one snapshot: a cached answer and the tables read after it agree', async () => {
    const before = (await db().read(versions)) ?? 0;
    // the name comes from the cache, before the read reaches DuckDB; a commit renames it; the read's next
    // statement anchors a snapshot that holds the rename, so the read runs again, all of it in that snapshot
    const { seen, runs } = await nameThenVersions(() => change('Newest'));
    expect(seen).toEqual(['Newest', before + 1]);
    expect(runs).toBe(2);
    expect(await db().read(name)).toBe('Newest');
    expect(await db().read(versions)).toBe(before + 1);
  });

  it('keeps a read whose cached answers the commit before its snapshot did not touch', async () => {
    const before = (await db().read(versions)) ?? 0;
    // a version only: the organization the read was answered from is as it was
    const { seen, runs } = await nameThenVersions(() =>
      db().write((c) =>
        duckDb(c).execute(
          `INSERT INTO version (uuid, project_id, number, created) VALUES (uuid(), 1, 2, now()::TIMESTAMP)`,
        ),
      ),
    );
    expect(seen).toEqual(['Newest', before + 1]);
    expect(runs).toBe(1);
  });

  it('answers a read the cache holds whole without a transaction', async () => {
    await db().read(name); // cached now
    /** The calls a read makes through its connection's `run` (BEGIN, COMMIT, statements without parameters). */
    const calls = async (fn: (c: DuckDBConnection) => Promise<unknown>) => {
      const sql: string[] = [];
      let connection: DuckDBConnection | undefined;
      await db().read(async (c) => {
        connection = c;
        const run = c.run.bind(c);
        c.run = ((text: string, ...rest: []) => {
          sql.push(text);
          return run(text, ...rest);
        }) as typeof c.run;
        return fn(c);
      });
      delete (connection as unknown as { run?: unknown }).run;
      return sql;
    };
    expect(await calls(name)).toEqual([]);
    expect(await calls(versions)).toEqual([expect.stringMatching(/^BEGIN TRANSACTION/), VERSIONS, 'COMMIT']);
  });

  it('neither stores nor serves answers while a commit of a table they read is in flight', async () => {
    const { hits } = db().cache.stats;
    const changed = db().cache.beginCommit(new Set(['organization']));
    // the first read would store its answer and the second be served it, were the commit ignored
    expect(await db().read(name)).toBe('Newest');
    expect(await db().read(name)).toBe('Newest');
    expect(db().cache.stats.hits).toBe(hits);
    db().cache.endCommit(changed);
    await db().read(name);
    expect(await db().read(name)).toBe('Newest');
    expect(db().cache.stats.hits).toBe(hits + 1);
  });
});

describe('statements without parameters', () => {
  const db = organizationDatabase(1);
  const COUNT = 'SELECT count(*)::INTEGER AS n FROM usage_entry';

  it('are planned at each run: a first run on an empty table does not hide the rows inserted after it', async () => {
    expect(await db().write((c) => duckDb(c).query(COUNT))).toEqual([{ n: 0 }]);
    await db().write((c) =>
      duckDb(c).execute(
        `INSERT INTO usage_entry (organization_id, day, metrics) VALUES (1, DATE '2026-01-01', 1)`,
      ),
    );
    expect(await db().write((c) => duckDb(c).query(COUNT))).toEqual([{ n: 1 }]);
    expect(await db().read((c) => duckDb(c).query(COUNT))).toEqual([{ n: 1 }]);
  });

  it('are not prepared, so nothing of them outlives their run', async () => {
    await db().read(async (c) => {
      const prepare = vi.spyOn(c, 'prepare');
      try {
        await duckDb(c).query(COUNT);
        await duckDb(c).execute('SELECT 1');
        expect(prepare).not.toHaveBeenCalled();
      } finally {
        prepare.mockRestore();
      }
    });
  });
});
