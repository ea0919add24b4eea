import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreDatabase, type ReplicaConfig } from '../../core/index.js';
import { storageOpener } from '../../server/composition.js';
import { bearer, createProject, signUp } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { onPostgres } from './engine.js';
import { eventually } from './eventually.js';
import type { ReplicaScheme } from './replicas.js';
import { seedHistory, submitRun } from './runs.js';

const PERF = 'branches=main&testbeds=linux&benchmarks=parse,sort&measures=latency';
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** What a user sees of the project: reports, alerts, perf. */
async function answers(app: TestApp, token: string) {
  const get = async (url: string) => {
    const response = await app.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as unknown;
  };
  return {
    reports: await get('/v0/projects/replicated/reports?per_page=255&expand=true'),
    alerts: await get('/v0/projects/replicated/alerts?per_page=255'),
    perf: await get(`/v0/projects/replicated/perf?${PERF}`),
  };
}

/** The schemes of replication-sftp-gcs.test.ts; replication.test.ts checks every other one, beside it. */
export const SFTP_AND_GCS: readonly string[] = ['sftp', 'gcs'];

/**
 * The replication test of each scheme given: an app replicating to a real store ships what it acknowledged, and a
 * restore from the replica answers as the app did. About 20 s a scheme, so the schemes are spread over test files
 * that run at once. Replication copies the embedded database (refused beside database.url): once, on DuckDB.
 */
export function describeReplication(schemes: readonly ReplicaScheme[]): void {
  describe.skipIf(onPostgres).each(schemes)('plus.disaster_recovery, scheme $label', ({ scheme, start }) => {
    it('ships every acknowledged report within the sync interval, and a restore gives the same answers', async () => {
      const server = await start();
      const dir = mkdtempSync(join(tmpdir(), `benchtrack-replica-${scheme}-`));
      directories.push(dir);
      const replicas = [{ ...server.replica, sync_interval: '200ms' }] as ReplicaConfig[];
      const t = await createTestApp({
        database: { file: join(dir, 'live.db') },
        plus: { disaster_recovery: { replicas } },
      });
      try {
        const admin = await signUp(t, 'Admin User', 'admin@example.com');
        await createProject(t, admin, 'admin-user', { name: 'Replicated' });
        const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
        await seedHistory(api, admin.token, 'replicated', {
          benchmarks: ['parse', 'sort'],
          jump: 'sort',
          days: 6,
        });
        for (let i = 0; i < 3; i++)
          await submitRun(api, admin.token, {
            project: 'replicated',
            branch: 'feature',
            start: new Date(Date.UTC(2026, 1, 1, 0, i)),
            results: { parse: { latency: { value: 100 + i } } },
          });
        const acknowledged = Date.now();
        const status = await eventually(async () => {
          const response = await t.app.inject({
            method: 'GET',
            url: '/v0/server/backup',
            headers: bearer(admin.token),
          });
          expect(response.statusCode, response.body).toBe(200);
          const [replica] = response.json().replicas;
          expect(Date.parse(replica.last_sync), JSON.stringify(replica)).toBeGreaterThan(acknowledged);
          return replica;
        }, 2_000);
        expect(status).toMatchObject({ scheme, last_error: null, consecutive_failures: 0 });
        expect(status.changes).toBeGreaterThan(0);
        const expected = await answers(t, admin.token);

        const target = join(dir, 'restored.db');
        const result = await restoreDatabase({
          source: 'replica',
          target,
          force: false,
          dataStore: undefined,
          replicas,
          open: await storageOpener(t.config, t.logger),
        });
        expect(result.replica).toMatchObject({ generation: status.generation, changes: status.changes });
        const copy = await createTestApp({ database: { file: target } });
        try {
          expect(await answers(copy, admin.token)).toEqual(expected);
        } finally {
          await copy.close();
        }
      } finally {
        await t.close();
        await server.close();
      }
    }, 60_000);
  });
}
