import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { history } from './history.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-history-'));
let database: Database;
beforeAll(async () => {
  database = await Database.open({ file: join(root, 'history.db'), readers: 1 }, logger);
  await migrate(database.setupConnection, migrations, database.path);
});
afterAll(async () => {
  await database.close();
  rmSync(root, { recursive: true, force: true });
});

interface Row {
  id: number;
  report: number;
  iteration: number;
  series: number;
  version: number;
  start: number;
  value: number;
}

/** What history must answer, computed the slow obvious way. */
function expected(rows: Row[], headVersions: Set<number>, series: number[], max: number[], since: number[]) {
  return series.map((s, i) =>
    rows
      .filter((r) => r.series === s && headVersions.has(r.version) && r.start >= (since[i] as number))
      .sort((a, b) => b.start - a.start || b.report - a.report || b.iteration - a.iteration)
      .slice(0, max[i])
      .map((r) => [r.value, BigInt(r.id)]),
  );
}

const rowArb = fc.record({
  report: fc.integer({ min: 1, max: 40 }),
  iteration: fc.integer({ min: 0, max: 2 }),
  series: fc.integer({ min: 1, max: 4 }),
  version: fc.integer({ min: 1, max: 6 }),
  value: fc.integer({ min: 0, max: 1000 }),
});

describe('history (newest values per series on a head)', () => {
  it('matches the obvious answer (values and metric ids) for any rows, repeated series, sample sizes and windows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(rowArb, {
          minLength: 0,
          maxLength: 120,
          selector: (r) => `${r.report}:${r.iteration}:${r.series}`,
        }),
        fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }),
        fc.array(
          fc.record({
            series: fc.integer({ min: 1, max: 5 }),
            max: fc.integer({ min: 1, max: 30 }),
            since: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (raw, versions, request) => {
          // A report's rows share its start time (minutes), and a report belongs to one version.
          const rows: Row[] = raw.map((r, k) => ({
            ...r,
            id: k + 1,
            start: r.report * 60_000,
            version: (r.report % 6) + 1,
          }));
          const headVersions = new Set(versions);
          const series = request.map((q) => q.series);
          const max = request.map((q) => q.max);
          const since = request.map((q) => (q.since === undefined ? -Infinity : q.since * 60_000));
          const answer = await database.write(async (c) => {
            await c.run('DELETE FROM metric; DELETE FROM report; DELETE FROM head_version');
            for (const v of headVersions) await c.run(`INSERT INTO head_version VALUES (1, ${v})`);
            // Reports of the head's versions bound the query below; every report gets a row.
            for (const report of new Set(rows.map((r) => r.report)))
              await c.run(`INSERT INTO report (id, uuid, project_id, branch_id, head_id, version_id, testbed_id, adapter,
                  start_time, end_time, created)
                VALUES (${report}, uuid(), 1, 1, 1, ${(report % 6) + 1}, 1, 'json',
                  make_timestamp(${report * 60_000}::BIGINT * 1000), make_timestamp(${report * 60_000}::BIGINT * 1000), now()::TIMESTAMP)`);
            for (const r of rows)
              await c.run(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
                  start_time, end_time, value)
                VALUES (${r.id}, uuid(), 1, ${r.report}, ${r.iteration}, ${r.series}, 1, ${r.version},
                  make_timestamp(${r.start}::BIGINT * 1000), make_timestamp(${r.start}::BIGINT * 1000), ${r.value})`);
            return history(c, {
              headId: 1,
              series: Int32Array.from(series),
              maxSamples: Int32Array.from(max),
              since: Float64Array.from(since),
            });
          });
          const got = series.map((_, i) =>
            Array.from(answer.values.subarray(answer.offsets[i], answer.offsets[i + 1]), (value, k) => [
              value,
              answer.ids[(answer.offsets[i] as number) + k],
            ]),
          );
          expect(got).toEqual(expected(rows, headVersions, series, max, since));
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
