import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DuckDBAppender,
  DuckDBConnection,
  DuckDBPreparedStatement,
  type DuckDBMaterializedResult,
} from '@duckdb/node-api';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createLogger, type Storage, type WriteRepositories } from '../../../core/index.js';
import { DeferredRows } from './deferred.js';
import { duckdbStorage } from './index.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-deferred-'));
let storage: Storage;
let file = 0;
beforeEach(async () => {
  spies = {
    connection: vi.spyOn(DuckDBConnection.prototype, 'run'),
    prepared: vi.spyOn(DuckDBPreparedStatement.prototype, 'run'),
    flushes: vi.spyOn(DuckDBAppender.prototype, 'flushSync'),
  };
  storage = await duckdbStorage.open({ file: join(root, `d-${file++}.db`) }, { logger });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await storage.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HEAD = 7;

/** What a report writes to the tables every report writes: its usage, version and link, report, 3 metrics. */
async function report(tx: WriteRepositories, idempotencyKey: string | null = null) {
  const now = new Date();
  await tx.usage.recordMetrics(1, '2026-11-27', 3);
  const latest = await tx.heads.latestVersion(HEAD);
  const version = await tx.versions.insert({
    uuid: randomUUID(),
    project_id: 1,
    number: latest ? latest.number + 1 : 0,
    hash: null,
    created: now,
  });
  await tx.headVersions.insert({ head_id: HEAD, version_id: version.id });
  const stored = await tx.reports.insert({
    uuid: randomUUID(),
    project_id: 1,
    user_id: null,
    branch_id: 1,
    head_id: HEAD,
    version_id: version.id,
    testbed_id: 1,
    adapter: 'json',
    idempotency_key: idempotencyKey,
    start_time: now,
    end_time: now,
    created: now,
  });
  // ingest asks whether a webhook of the project wants `report.created`
  await tx.webhooks.all({ project_id: 1 });
  const nan = () => new Float64Array(3).fill(Number.NaN);
  await tx.metrics.append(stored, {
    uuid: [randomUUID(), randomUUID(), randomUUID()],
    iteration: new Int32Array(3),
    series: Int32Array.from([1, 2, 3]),
    value: Float64Array.from([1.5, 2.5, 3.5]),
    lower: nan(),
    upper: Float64Array.from([2, Number.NaN, 4]),
    threshold: Int32Array.from([0, 5, 0]),
    model: Int32Array.from([0, 6, 0]),
    baseline: nan(),
    lowerLimit: nan(),
    upperLimit: nan(),
  });
  return { version: version.number, report: stored.id };
}

/**
 * Calls into DuckDB from now on: statements (prepared or not, one per call, whatever it holds) and Appender
 * flushes. Spied before the storage opens, which binds the writer's methods.
 */
let spies: {
  connection: MockInstance<DuckDBConnection['run']>;
  prepared: MockInstance<DuckDBPreparedStatement['run']>;
  flushes: MockInstance<DuckDBAppender['flushSync']>;
};
function countStatements() {
  const at = {
    statements: spies.connection.mock.calls.length + spies.prepared.mock.calls.length,
    flushes: spies.flushes.mock.calls.length,
  };
  return () => ({
    statements: spies.connection.mock.calls.length + spies.prepared.mock.calls.length - at.statements,
    flushes: spies.flushes.mock.calls.length - at.flushes,
  });
}

const tableCounts = () =>
  storage.read(async (r) => ({
    reports: await r.reports.count({ project_id: 1 }),
    versions: (await r.heads.versionIds(HEAD, 1_000_000, 1_000)).length,
    metrics: (
      await r.metrics.history({
        headId: HEAD,
        series: Int32Array.from([1, 2, 3]),
        maxSamples: new Int32Array(3).fill(100),
        since: new Float64Array(3).fill(-Infinity),
      })
    ).values.length,
    usage: await r.usage.metrics(1, '2026-11-01', '2026-11-30'),
  }));

describe('deferred rows of the tables every report writes', () => {
  it("send no statement while a steady report's function runs: its rows reach the tables at COMMIT", async () => {
    // the first reports draw ids and read the head's latest version (the first after opening runs uncached)
    await storage.transaction((tx) => report(tx));
    await storage.transaction((tx) => report(tx));
    const count = countStatements();
    let during: ReturnType<typeof count> | undefined;
    const written = await storage.transaction(async (tx) => {
      const before = count();
      const result = await report(tx);
      const after = count();
      during = { statements: after.statements - before.statements, flushes: after.flushes - before.flushes };
      return result;
    });
    expect(during).toEqual({ statements: 0, flushes: 0 });
    expect(written.version).toBe(2);
    expect(await tableCounts()).toEqual({ reports: 3, versions: 3, metrics: 9, usage: 9 });
  });

  it('send a whole group commit as BEGIN, one call with its INSERTs and COMMIT, and one Appender, numbering versions in order', async () => {
    await storage.transaction((tx) => report(tx));
    await storage.transaction((tx) => report(tx));
    const count = countStatements();
    const written = await Promise.all(
      Array.from({ length: 6 }, () => storage.transaction((tx) => report(tx))),
    );
    expect(written.map((w) => w.version)).toEqual([2, 3, 4, 5, 6, 7]);
    // the first of the six ran alone (the writer was idle), the other five as one group: each group is one call
    // for BEGIN, one for its four INSERTs and COMMIT, and one Appender for its metrics
    const calls = count();
    expect(calls).toEqual({ statements: 4, flushes: 2 });
    expect(await tableCounts()).toEqual({ reports: 8, versions: 8, metrics: 24, usage: 24 });
  });

  it('show every row inserted before a statement to that statement, in the same transaction', async () => {
    const seen = await storage.transaction(async (tx) => {
      await tx.named.ensureSeries(1, 1, [
        [1, 1],
        [1, 2],
        [1, 3],
      ]);
      const { report: id } = await report(tx, '8b5d0c3e-6d0f-4c4f-9f3a-2b1e0c9d8a7f');
      return {
        byKey: (
          await tx.reports.find({ project_id: 1, idempotency_key: '8B5D0C3E-6D0F-4C4F-9F3A-2B1E0C9D8A7F' })
        )?.id,
        metrics: (await tx.metrics.byReports([id])).map((m) => [m.value, m.upper_value, m.threshold_id]),
      };
    });
    expect(seen.byKey).toBeGreaterThan(0);
    expect(seen.metrics).toEqual([
      [1.5, 2, null],
      [2.5, null, 5],
      [3.5, 4, null],
    ]);
  });

  it('keep a failure at COMMIT its own: a duplicate idempotency key found only when the group flushes', async () => {
    await storage.transaction((tx) => report(tx));
    const key = randomUUID();
    const results = await Promise.allSettled([
      storage.transaction((tx) => report(tx)),
      storage.transaction((tx) => report(tx, key)),
      storage.transaction((tx) => report(tx)),
      storage.transaction((tx) => report(tx, key)), // checks nothing first: the unique key refuses it
      storage.transaction((tx) => report(tx)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(String((results[3] as PromiseRejectedResult).reason)).toMatch(/duplicate key|constraint/i);
    expect(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.version] : []))).toEqual([1, 2, 3, 4]);
    expect(await tableCounts()).toEqual({ reports: 5, versions: 5, metrics: 15, usage: 15 });
  });

  it('drop the rows of a transaction that rolls back, and number the next version after the last committed one', async () => {
    await storage.transaction((tx) => report(tx));
    await expect(
      storage.transaction(async (tx) => {
        await report(tx);
        await report(tx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await storage.transaction((tx) => report(tx))).version).toBe(1);
    expect(await tableCounts()).toEqual({ reports: 2, versions: 2, metrics: 6, usage: 6 });
  });

  it('number after versions linked by a statement (a start point), not after what it last numbered', async () => {
    await storage.transaction((tx) => report(tx));
    await storage.transaction(async (tx) => {
      const other = await tx.versions.insert({
        uuid: randomUUID(),
        project_id: 1,
        number: 41,
        hash: null,
        created: new Date(),
      });
      await tx.headVersions.link(HEAD, [other.id]);
    });
    expect((await storage.transaction((tx) => report(tx))).version).toBe(42);
  });
});

describe('a flush', () => {
  it('makes a statement run beside a running flush wait for it, then moves the rows queued meanwhile', async () => {
    const sent: string[] = [];
    const finish: (() => void)[] = [];
    const rows = new DeferredRows(
      (sql) => {
        sent.push(sql);
        return new Promise((resolve) => finish.push(() => resolve({} as DuckDBMaterializedResult)));
      },
      () => Promise.reject(new Error('no Appender here')),
      () => undefined,
    );
    const usage = { name: 'usage_entry', columns: [['metrics', 'BIGINT']] } as const;
    rows.insert(usage, { metrics: 1 });
    const first = rows.flush();
    rows.insert(usage, { metrics: 2 });
    let besideDone = false;
    const beside = rows.flush().then(() => (besideDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // the second statement must not run before the first flush's rows are in their table
    expect(besideDone).toBe(false);
    expect(sent).toHaveLength(1);
    finish[0]?.();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain('INSERT INTO "usage_entry"');
    expect(besideDone).toBe(false);
    finish[1]?.();
    await beside;
    expect(besideDone).toBe(true);
  });
});
