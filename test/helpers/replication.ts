import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreDatabase, type ReplicaConfig, type ReplicaStatus } from '../../core/index.js';
import { storageOpener } from '../../server/composition.js';
import { bearer, createProject, signUp } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { eventually } from './eventually.js';
import { onPostgres } from './engine.js';
import type { ReplicaScheme, ReplicaServer } from './replicas.js';
import { projectAnswers, seedHistory, submitRun } from './runs.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/**
 * One app replicating to a real store of every scheme given at once (one replica each, every 200 ms) takes a
 * history and three more runs; then, per scheme, the replica must have shipped all of it within the sync
 * interval, and a restore from it alone must answer as the app did. Replication copies the embedded database
 * (refused beside database.url): once, on DuckDB.
 */
export function describeReplication(schemes: readonly ReplicaScheme[]): void {
  describe.skipIf(onPostgres)('plus.disaster_recovery, one replica of every scheme', () => {
    const servers: ReplicaServer[] = [];
    let t: TestApp;
    let replicas: ReplicaConfig[];
    let token: string;
    let acknowledged: number;
    let statuses: ReplicaStatus[] = [];
    let expected: Awaited<ReturnType<typeof projectAnswers>>;
    let dir: string;

    beforeAll(async () => {
      servers.push(...(await Promise.all(schemes.map(({ start }) => start()))));
      dir = mkdtempSync(join(tmpdir(), 'benchtrack-replicas-'));
      directories.push(dir);
      replicas = servers.map(({ replica }) => ({ ...replica, sync_interval: '200ms' })) as ReplicaConfig[];
      t = await createTestApp({
        database: { file: join(dir, 'live.db') },
        plus: { disaster_recovery: { replicas } },
      });
      const admin = await signUp(t, 'Admin User', 'admin@example.com');
      token = admin.token;
      // every replica holds its first snapshot before the project is made, so what follows ships as change sets
      await eventually(async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: '/v0/server/backup',
          headers: bearer(token),
        });
        for (const status of response.json().replicas as ReplicaStatus[])
          expect(status.last_snapshot, JSON.stringify(status)).not.toBeNull();
      }, 30_000);
      await createProject(t, admin, 'admin-user', { name: 'Replicated' });
      const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      await seedHistory(api, token, 'replicated', { benchmarks: ['parse', 'sort'], jump: 'sort', days: 6 });
      for (let i = 0; i < 3; i++)
        await submitRun(api, token, {
          project: 'replicated',
          branch: 'feature',
          start: new Date(Date.UTC(2026, 1, 1, 0, i)),
          results: { parse: { latency: { value: 100 + i } } },
        });
      acknowledged = Date.now();
      // every replica syncs within the interval; the time allowed is for a loaded machine, and each test below
      // checks its own replica's status, so one that never syncs fails its own test, not this setup
      const synced = () => statuses.every((status) => Date.parse(status.last_sync ?? '') > acknowledged);
      for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
        const response = await t.app.inject({
          method: 'GET',
          url: '/v0/server/backup',
          headers: bearer(token),
        });
        expect(response.statusCode, response.body).toBe(200);
        statuses = response.json().replicas as ReplicaStatus[];
        if (synced()) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expected = await projectAnswers(t, token, 'replicated');
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      await Promise.all(servers.map((server) => server.close()));
    });

    it.each(schemes.map((scheme, index) => ({ ...scheme, index })))(
      'scheme $label: ships every acknowledged report within the sync interval, and a restore gives the same answers',
      async ({ scheme, index }) => {
        const status = statuses[index] as ReplicaStatus;
        expect(Date.parse(status.last_sync ?? ''), JSON.stringify(status)).toBeGreaterThan(acknowledged);
        expect(status).toMatchObject({ scheme, last_error: null, consecutive_failures: 0 });
        expect(status.changes).toBeGreaterThan(0);
        const target = join(dir, `restored-${index}.db`);
        const result = await restoreDatabase({
          source: `replica:${index}`,
          target,
          force: false,
          dataStore: undefined,
          replicas,
          open: await storageOpener(t.config, t.logger),
        });
        expect(result.replica).toMatchObject({ generation: status.generation, changes: status.changes });
        const copy = await createTestApp({ database: { file: target } });
        try {
          expect(await projectAnswers(copy, token, 'replicated')).toEqual(expected);
        } finally {
          await copy.close();
        }
      },
      60_000,
    );
  });
}
