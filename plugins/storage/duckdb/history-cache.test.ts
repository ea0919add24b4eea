import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type HistoryRequest, type ReportRecord } from '../../../core/index.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { history } from './history.js';
import { duckdbWriter } from './writes.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-history-cache-'));
let database: Database;
let file = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function fresh(): Promise<void> {
  await database?.close();
  database = await Database.open({ file: join(root, `h-${file++}.db`), readers: 1 }, logger);
  await migrate(database.setupConnection, migrations, database.path);
  await database.write(async (c) => {
    for (let v = 1; v <= 3; v++) await c.run(`INSERT INTO head_version VALUES (1, ${v})`);
  });
}
beforeAll(fresh);
afterAll(() => database.close());

type Step =
  | { kind: 'report'; start: number; series: number[]; iterations: number; request: Request; fail: boolean }
  | { kind: 'delete'; report: number }
  | { kind: 'group'; starts: number[]; series: number[]; request: Request; fail: number };

interface Request {
  readonly series: number[];
  readonly max: number;
  readonly since: number | undefined;
}

const requestArb = fc.record({
  series: fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }),
  max: fc.integer({ min: 1, max: 6 }),
  since: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
});
const seriesArb = fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      start: fc.integer({ min: 0, max: 30 }),
      series: seriesArb,
      iterations: fc.integer({ min: 1, max: 2 }),
      request: requestArb,
      fail: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), report: fc.integer({ min: 1, max: 30 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('group' as const),
      starts: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 2, maxLength: 4 }),
      series: seriesArb,
      request: requestArb,
      fail: fc.integer({ min: -1, max: 3 }),
    }),
  },
);

const asRequest = (q: Request): HistoryRequest => ({
  headId: 1,
  series: Int32Array.from(q.series),
  maxSamples: new Int32Array(q.series.length).fill(q.max),
  since: new Float64Array(q.series.length).fill(q.since === undefined ? -Infinity : q.since * 60_000),
});

let nextReport = 1;

/**
 * One ingest-like transaction: the history of `request` through the writer's cache, checked against the same
 * query without it in the same transaction, then a report at `start` minutes with metrics of `series`.
 */
async function ingest(
  c: DuckDBConnection,
  start: number,
  series: number[],
  iterations: number,
  request: Request,
) {
  const { metrics } = duckdbWriter(c, database, () => undefined);
  const cached = await metrics.history(asRequest(request));
  expect(cached).toEqual(await history(c, asRequest(request)));
  const id = nextReport++;
  const time = new Date(start * 60_000);
  await c.run(`INSERT INTO report (id, uuid, project_id, branch_id, head_id, version_id, testbed_id, adapter,
      start_time, end_time, created)
    VALUES (${id}, uuid(), 1, 1, 1, ${(id % 3) + 1}, 1, 'json', make_timestamp(${time.getTime()}::BIGINT * 1000),
      make_timestamp(${time.getTime()}::BIGINT * 1000), now()::TIMESTAMP)`);
  const report = {
    id,
    head_id: 1,
    project_id: 1,
    version_id: (id % 3) + 1,
    start_time: time,
    end_time: time,
  } as ReportRecord;
  const rows = series.flatMap((s) => Array.from({ length: iterations }, (_, k) => [s, k] as const));
  const nan = () => new Float64Array(rows.length).fill(Number.NaN);
  await metrics.append(report, {
    uuid: rows.map(() => randomUUID()),
    iteration: Int32Array.from(rows, ([, k]) => k),
    series: Int32Array.from(rows, ([s]) => s),
    value: Float64Array.from(rows, () => Math.round(Math.random() * 1000)),
    lower: nan(),
    upper: nan(),
    threshold: new Int32Array(rows.length),
    model: new Int32Array(rows.length),
    baseline: nan(),
    lowerLimit: nan(),
    upperLimit: nan(),
  });
}

describe('history cache', () => {
  it('answers every ingest transaction as the table does, across backfills, rollbacks, deletes and group commits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
        await fresh();
        nextReport = 1;
        for (const step of steps) {
          if (step.kind === 'report') {
            const done = database.write(async (c) => {
              await ingest(c, step.start, step.series, step.iterations, step.request);
              if (step.fail) throw new Error('rolled back on purpose');
            });
            if (step.fail) await expect(done).rejects.toThrow('rolled back on purpose');
            else await done;
          } else if (step.kind === 'delete') {
            await database.write((c) => c.run(`DELETE FROM metric WHERE report_id = ${step.report}`));
          } else {
            // queued together, they commit as one group; one that fails rolls the group back and each runs alone
            const settled = await Promise.allSettled(
              step.starts.map((start, k) =>
                database.write(async (c) => {
                  await ingest(c, start, step.series, 1, step.request);
                  if (k === step.fail) throw new Error('rolled back on purpose');
                }),
              ),
            );
            settled.forEach((outcome, k) => {
              if (k === step.fail) expect(outcome.status).toBe('rejected');
              else if (outcome.status === 'rejected') throw outcome.reason;
            });
          }
        }
        // and a last read, after everything committed
        await database.write((c) =>
          ingest(c, 31, [1], 1, { series: [1, 2, 3, 4, 5], max: 6, since: undefined }),
        );
      }),
      { numRuns: 15 },
    );
  }, 240_000);

  it('serves the history of a steady ingest from memory', async () => {
    await fresh();
    const request = { series: [1, 2, 3], max: 4, since: undefined };
    for (let k = 0; k < 3; k++) await database.write((c) => ingest(c, k, [1, 2, 3], 1, request));
    const before = database.historyCache.stats;
    await database.write((c) => ingest(c, 3, [1, 2, 3], 1, request));
    const after = database.historyCache.stats;
    expect(after.hits - before.hits).toBe(3);
    expect(after.misses).toBe(before.misses);
  });
});
