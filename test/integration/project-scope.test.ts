import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { startPostgres, type LocalPostgres } from '../helpers/postgres.js';

/**
 * Every statement the API sends on a table that belongs to a project (a table with a project_id column) filters by
 * that project, so the schema stays ready for a PostgreSQL distributed by project (docs/storage.md, "Past one
 * PostgreSQL"): there, such a statement runs on the one shard holding the project, and a statement without the
 * filter fans out to every shard. The statements come from PostgreSQL's own log (log_statement = all) of a cluster
 * of this test's own, over a day of ordinary use through the API.
 *
 * The statements below are the known exceptions: each reads or writes rows by keys it got from a statement that
 * did filter by the project (so they stay on one shard once those keys carry the project, see the docs), and a new
 * statement on a project's table that does not filter by the project fails this test until it does, or is added
 * here with its reason.
 */
const EXCEPTIONS: readonly { readonly match: RegExp; readonly why: string }[] = [
  {
    match:
      /^(?:SELECT \* FROM "\w+"|UPDATE "\w+" SET .+) WHERE "?id"? = (?:\$\d+|ANY\(\$\d+(?:::int\[\])?\))(?: LIMIT 1)?$/,
    why: 'a row by its id, found by an earlier statement of the request that filtered by the project',
  },
  {
    match:
      /^SELECT \* FROM "(?:alert|job|regression_alert|regression_series|report|series|threshold)" WHERE "(?:report_id|regression_id|alert_id|testbed_id|branch_id|version_id)" = /,
    why: "the rows of a project's report, regression, alert, testbed, branch or version, by its id",
  },
  {
    match:
      /^SELECT (?:v\.\*|v\.id) FROM version v JOIN head_version hv ON hv\.version_id = v\.id WHERE hv\.head_id = \$1 /,
    why: "the versions of a project's head (a branch's), by the head's id",
  },
  {
    match:
      /^SELECT s\.id, s\.benchmark_id, s\.measure_id FROM series s JOIN unnest\(.+ WHERE s\.testbed_id = \$3(?:::int)?$/,
    why: "the series of a project's testbed, by the testbed's id",
  },
  {
    match:
      / FROM metric m (?:JOIN series s ON s\.id = m\.series_id WHERE m\.(?:id|report_id) = ANY|WHERE m\.series_id = w\.series_id )/,
    why: "metrics by the ids of a project's reports, metrics or series (history, report pages)",
  },
  {
    match: /^WITH perm AS \(SELECT .+ JOIN metric m ON m\.series_id = perm\.series_id /,
    why: "perf and its count: metrics by the ids of a project's series and heads",
  },
  {
    match:
      /^SELECT report_id, count\(\*\) FILTER \(WHERE status = 'active'\) AS active, count\(\*\) AS total FROM alert WHERE report_id = ANY/,
    why: "the alerts of a page of a project's reports, by the reports' ids",
  },
  {
    match:
      /^(?:DELETE FROM notification(?:_delivery|_attempt)? WHERE .+ n\.created < \$1::timestamptz AND n\.fanned |SELECT 1 AS one FROM notification WHERE NOT fanned |SELECT min\(next_attempt\) AS due FROM notification_delivery WHERE state = 'pending')/,
    why: "the notification outbox's delivery loop and its pruning: server-wide by design, every project's at once",
  },
  {
    match: /^SELECT \* FROM "notification_preference" WHERE "email" = \$1$/,
    why: "a person's notification choices, by their e-mail address (an unsubscribe link names no project)",
  },
];

let pg: LocalPostgres;
let t: TestApp;
let ada: Session;
let clock = Date.parse('2026-06-01T00:00:00Z');

describe.runIf(onPostgres)('statements on project tables', () => {
  beforeAll(async () => {
    pg = await startPostgres();
    const url = await pg.createDatabase('scope');
    await pg.sql(`ALTER DATABASE scope SET log_statement = 'all'`);
    t = await createTestApp({ database: { url } }, { now: () => new Date(clock) });
    ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
    await createProject(t, ada, 'ada-lovelace', { name: 'Scope' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await pg?.stop();
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      headers: bearer(ada.token),
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response;
  };

  it('filter by the project, but for the known exceptions', async () => {
    const P = '/v0/projects/scope';
    for (let i = 0; i < 8; i++) {
      clock += 3_600_000;
      await call('POST', `${P}/reports`, {
        branch: 'main',
        testbed: 'linux',
        start_time: new Date(clock - 1000).toISOString(),
        end_time: new Date(clock).toISOString(),
        settings: { adapter: 'json' },
        results: [
          JSON.stringify({ a: { latency: { value: i < 6 ? 100 : 200 } }, b: { latency: { value: 50 } } }),
        ],
        thresholds: { models: { latency: { test: 'static', upper_boundary: 150 } } },
      });
    }
    await t.settled();
    const reports = (await call('GET', `${P}/reports`)).json() as { uuid: string }[];
    await call('GET', `${P}/reports/${reports[0]?.uuid}`);
    await call('GET', `${P}/reports?expand=true`);
    for (const list of [
      'branches',
      'testbeds',
      'benchmarks',
      'measures',
      'thresholds',
      'alerts',
      'regressions',
    ])
      await call('GET', `${P}/${list}`);
    const perf = `branches=main&testbeds=linux&benchmarks=a,b&measures=latency`;
    await call('GET', `${P}/perf?${perf}`);
    await call('GET', `${P}/perf/img?${perf}`);

    const tables = (
      await pg.sql(
        `SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
         WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND a.attname = 'project_id' AND NOT a.attisdropped ORDER BY 1`,
        'scope',
      )
    )
      .trim()
      .split('\n');
    expect(tables).toEqual(expect.arrayContaining(['metric', 'report', 'alert', 'benchmark', 'branch']));
    const statements = logged(readFileSync(join(dirname(pg.dataDir), 'log'), 'utf8'));
    expect(statements.length).toBeGreaterThan(50);
    const names = tables.join('|');
    const touches = new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE)\\s+"?(?:${names})"?\\b`, 'i');
    const unscoped = statements.filter(
      (sql) =>
        touches.test(sql) && !/\bproject_id\b/.test(sql) && !EXCEPTIONS.some(({ match }) => match.test(sql)),
    );
    expect(unscoped).toEqual([]);
  }, 120_000);
});

/** The statements of a PostgreSQL log with log_statement = all (simple and extended protocol), one entry each. */
function logged(log: string): string[] {
  const entries = log.split(/\n(?=\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})/);
  const statements: string[] = [];
  for (const entry of entries) {
    const found = /LOG: {2}(?:statement|execute [^:]*): ([\s\S]*)$/.exec(entry);
    if (found?.[1]) statements.push(found[1].replace(/\s+/g, ' ').trim());
  }
  return statements;
}
