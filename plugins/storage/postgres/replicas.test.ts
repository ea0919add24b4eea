import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type Storage } from '../../../core/index.js';
import { eventually } from '../../../test/helpers/eventually.js';
import { startPostgres, startReplica, type LocalPostgres } from '../../../test/helpers/postgres.js';
import { postgresStorage } from './index.js';
import { lsn } from './replicas.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
let primary: LocalPostgres;
let replica: LocalPostgres;
let storage: Storage;

const metaOnReplica = (key: string) =>
  replica.sql(`SELECT value FROM server_meta WHERE key = '${key}'`, 'replicated');
const read = (key: string) => storage.read((r) => r.meta.get(key), { replica: true });
const write = (key: string, value: string) => storage.transaction((tx) => tx.meta.set(key, value));

beforeAll(async () => {
  primary = await startPostgres();
  const url = await primary.createDatabase('replicated');
  // the schema first, so the base backup carries it
  await (await postgresStorage.open({ url }, { logger })).close();
  replica = await startReplica(primary);
  const replicaUrl = url.replace(`:${primary.port}/`, `:${replica.port}/`);
  storage = await postgresStorage.open({ url, replicas: [replicaUrl] }, { logger });
}, 120_000);
afterAll(async () => {
  await storage?.close();
  await replica?.stop();
  await primary?.stop();
});

describe('read replicas (database.replicas)', () => {
  it('compares WAL positions as numbers', () => {
    expect(lsn('16/B374D848')).toBe(0x16b374d848n);
    expect(lsn('1/0') > lsn('0/FFFFFFFF')).toBe(true);
  });

  it('serve reads that allow it from a replica, the others from the primary, and a caller reads its own write while the replica lags', async () => {
    await write('first', 'one');
    await eventually(async () => expect(await metaOnReplica('first')).toBe('one\n'), 20_000);
    await replica.sql('SELECT pg_wal_replay_pause()');
    try {
      // written behind this process's back: the replica, paused, does not have it, and reads go there
      await primary.sql(`INSERT INTO server_meta VALUES ('direct', 'primary only')`, 'replicated');
      expect(await read('direct')).toBeUndefined();
      // a read that does not allow a replica sees every committed write
      expect(await storage.read((r) => r.meta.get('direct'))).toBe('primary only');
      expect(await read('first')).toBe('one');

      // a write through this process: the next read must see it although the replica still lags
      await write('mine', 'just written');
      expect(await metaOnReplica('mine')).toBe('');
      expect(await read('mine')).toBe('just written');
      expect(await read('direct')).toBe('primary only');
    } finally {
      await replica.sql('SELECT pg_wal_replay_resume()');
    }
    await eventually(async () => expect(await metaOnReplica('mine')).toBe('just written\n'), 20_000);
    expect(await read('mine')).toBe('just written');
  });
});
