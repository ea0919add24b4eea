import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GCS_CREDENTIALS_ENV } from '../../core/replication/stores/gcs.js';
import { bearer, signUp } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { startLocalGcs, type LocalGcs } from '../helpers/gcs.js';

// Data stores that accept a connection and then never answer (a firewall that swallows packets, a wedged proxy):
// every call gives up after the stall time, so a backup answers 503 and frees its place, and a replica records
// the failure and retries, instead of waiting forever.

const STALL_MS = 300;
let stalled: { port: number; sockets: Set<Socket>; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-stalled-'));
  const sockets = new Set<Socket>();
  // reads whatever it is sent and answers nothing
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined).on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stalled = {
    port: (server.address() as AddressInfo).port,
    sockets,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
});
afterAll(async () => {
  await stalled?.close();
  rmSync(dir, { recursive: true, force: true });
});

const endpoint = () => `http://127.0.0.1:${stalled.port}`;

describe('a data store that never answers', () => {
  it('fails the backup with 503 in bounded time, and the next backup runs', async () => {
    const file = join(dir, 'backup.db');
    const t = await createTestApp(
      {
        database: {
          file,
          data_store: {
            service: 'cloud_s3',
            access_key_id: 'AKIDSTALLED',
            secret_access_key: 'stalled-secret-0001',
            access_point: 'arn:aws:s3:us-east-1:123456789012:accesspoint/backups/nightly',
            endpoint: endpoint(),
          },
        },
      },
      { storeStallMs: STALL_MS },
    );
    try {
      const admin = await signUp(t, 'Admin User', 'admin@example.com');
      const backup = (payload: object) =>
        t.app.inject({
          method: 'POST',
          url: '/v0/server/backup',
          headers: bearer(admin.token),
          payload,
        });
      const started = performance.now();
      const pushed = await backup({ data_store: 'cloud_s3' });
      expect(pushed.statusCode, pushed.body).toBe(503);
      expect(pushed.json().message).toContain('database.data_store');
      expect(performance.now() - started).toBeLessThan(10_000);
      const local = await backup({});
      expect(local.statusCode, local.body).toBe(201);
      expect(readdirSync(dir).filter((name) => name.startsWith('backup-'))).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
});

describe('replica stores that never answer', () => {
  let gcs: LocalGcs;
  const savedCredentials = process.env[GCS_CREDENTIALS_ENV];
  beforeAll(async () => {
    gcs = await startLocalGcs([]);
    process.env[GCS_CREDENTIALS_ENV] = gcs.credentialsFile;
  });
  afterAll(async () => {
    if (savedCredentials === undefined) delete process.env[GCS_CREDENTIALS_ENV];
    else process.env[GCS_CREDENTIALS_ENV] = savedCredentials;
    await gcs?.close();
  });

  it('fail each call after the stall time and retry, on every scheme', async () => {
    const common = { sync_interval: '100ms', bucket: 'replicas' };
    const t = await createTestApp(
      {
        database: { file: join(dir, 'replicated.db') },
        plus: {
          disaster_recovery: {
            replicas: [
              {
                scheme: 's3',
                endpoint: endpoint(),
                access_key_id: 'AKIDSTALLED',
                secret_access_key: 'stalled-secret-0002',
                ...common,
              },
              {
                scheme: 'abs',
                account_name: 'acct',
                account_key: Buffer.from('stalled-account-key-0003').toString('base64'),
                endpoint: `${endpoint()}/acct`,
                ...common,
              },
              { scheme: 'gcs', endpoint: endpoint(), ...common },
              {
                scheme: 'sftp',
                host: '127.0.0.1',
                port: stalled.port,
                user: 'u',
                password: 'stalled-password-0004',
                sync_interval: '100ms',
              },
            ],
          },
        },
      },
      { storeStallMs: STALL_MS },
    );
    try {
      const admin = await signUp(t, 'Admin User', 'admin@example.com');
      await eventually(async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: '/v0/server/backup',
          headers: bearer(admin.token),
        });
        const replicas = response.json().replicas as { consecutive_failures: number; last_error: string }[];
        expect(replicas).toHaveLength(4);
        for (const replica of replicas) {
          expect(replica.consecutive_failures, JSON.stringify(replica)).toBeGreaterThanOrEqual(2);
          expect(replica.last_error).toEqual(expect.any(String));
        }
      }, 10_000);
    } finally {
      const closing = performance.now();
      await t.close();
      // the last sync of a replica that failed is skipped, and no call waits on the silent store
      expect(performance.now() - closing).toBeLessThan(5_000);
    }
  });
});
