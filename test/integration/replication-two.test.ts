import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreDatabase, type ReplicaConfig } from '../../core/index.js';
import { storageOpener } from '../../server/composition.js';
import { bearer, createProject, signUp } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { submitRun } from '../helpers/runs.js';

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-two-replicas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(onPostgres)('plus.disaster_recovery with two replicas', () => {
  it('restores from either replica', async () => {
    const replicas = [0, 1].map((i) => ({
      scheme: 'file',
      path: join(dir, `replica-${i}`),
      sync_interval: '200ms',
    })) as ReplicaConfig[];
    const t = await createTestApp({
      database: { file: join(dir, 'live.db') },
      plus: { disaster_recovery: { replicas } },
    });
    try {
      const admin = await signUp(t, 'Admin User', 'admin@example.com');
      await createProject(t, admin, 'admin-user', { name: 'Replicated' });
      const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      for (let i = 0; i < 3; i++)
        await submitRun(api, admin.token, {
          project: 'replicated',
          start: new Date(Date.UTC(2026, 1, 1, 0, i)),
          results: { parse: { latency: { value: 100 + i } } },
        });
      const acknowledged = Date.now();
      await eventually(async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: '/v0/server/backup',
          headers: bearer(admin.token),
        });
        for (const replica of response.json().replicas)
          expect(Date.parse(replica.last_sync), JSON.stringify(replica)).toBeGreaterThan(acknowledged);
      }, 5_000);
      for (const index of [0, 1]) {
        const result = await restoreDatabase({
          source: `replica:${index}`,
          target: join(dir, `restored-${index}.db`),
          force: false,
          dataStore: undefined,
          replicas,
          open: await storageOpener(t.config, t.logger),
        });
        expect(result.replica?.changes, `replica ${index}`).toBeGreaterThanOrEqual(0);
      }
    } finally {
      await t.close();
    }
  }, 60_000);
});
