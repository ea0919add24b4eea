import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ENV, loadConfig } from '../../core/config/load.js';
import { openStore } from '../../core/replication/open-store.js';
import { sftpStore } from '../../core/replication/stores/sftp.js';
import { onPostgres } from '../helpers/engine.js';
import { startSshd, type LocalSshd } from '../helpers/sshd.js';

// An sftp replica with `host_key` talks only to the server holding that key: a man in the middle would otherwise
// receive the database and, with password authentication, the password. Runs once (it involves no database).
describe.runIf(!onPostgres)('sftp replica host key', () => {
  let sshd: LocalSshd;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd?.close();
  });

  const replica = (extra: { host_key?: string }, path: string) => ({
    scheme: 'sftp' as const,
    host: '127.0.0.1',
    port: sshd.port,
    user: sshd.keyUser,
    key_path: sshd.keyPath,
    path: join(sshd.keyDirectory, path),
    sync_interval: '1s',
    retention: '24h',
    retention_check_interval: '1h',
    ...extra,
  });
  const source = join(import.meta.dirname, 'sftp-host-key.test.ts');

  it('uploads to the server whose key matches host_key', async () => {
    const store = sftpStore(replica({ host_key: sshd.hostKey }, 'pinned'));
    try {
      await store.put(join(sshd.keyDirectory, 'pinned', 'a.txt'), source);
    } finally {
      await store.close();
    }
    expect(readdirSync(join(sshd.keyDirectory, 'pinned'))).toEqual(['a.txt']);
  });

  it('refuses a server presenting another key, names both fingerprints, and writes nothing', async () => {
    const other = `SHA256:${'A'.repeat(43)}`;
    const store = sftpStore(replica({ host_key: other }, 'refused'));
    try {
      const refused = store.put(join(sshd.keyDirectory, 'refused', 'a.txt'), source);
      await expect(refused).rejects.toThrow(
        `presented host key ${sshd.hostKey}, not the configured host_key ${other}`,
      );
      await expect(refused).rejects.toThrow(/set host_key to the new fingerprint/);
    } finally {
      await store.close();
    }
    expect(existsSync(join(sshd.keyDirectory, 'refused'))).toBe(false);
  });

  it('tells the operator the fingerprint to pin when host_key is not set, once', async () => {
    const heard: string[] = [];
    const store = sftpStore(replica({}, 'unpinned'), (fingerprint) => heard.push(fingerprint));
    try {
      await store.put(join(sshd.keyDirectory, 'unpinned', 'a.txt'), source);
      await store.close();
      await store.put(join(sshd.keyDirectory, 'unpinned', 'b.txt'), source);
    } finally {
      await store.close();
    }
    expect(heard).toEqual([sshd.hostKey]);
    expect(readdirSync(join(sshd.keyDirectory, 'unpinned')).sort()).toEqual(['a.txt', 'b.txt']);
  });

  // An absolute `path` lost its leading slash with the other schemes' prefixes: the replica went under the login
  // directory (root's ~/tmp/... here). The listing holds the replica's key, not the one in the directory beside it.
  it('keeps an absolute path a path on the server, and lists under it', async () => {
    const { store, prefix } = await openStore(replica({ host_key: sshd.hostKey }, 'absolute/replica'));
    try {
      expect(prefix).toBe(`${join(sshd.keyDirectory, 'absolute', 'replica')}/`);
      await store.put(`${prefix}generation/a.txt`, source);
      await store.put(join(sshd.keyDirectory, 'absolute', 'beside', 'b.txt'), source);
      expect(readdirSync(join(sshd.keyDirectory, 'absolute', 'replica', 'generation'))).toEqual(['a.txt']);
      expect(await store.list(prefix)).toEqual([`${prefix}generation/a.txt`]);
    } finally {
      await store.close();
    }
  });

  it('refuses a host_key that is not a fingerprint, naming the key', () => {
    const load = () =>
      loadConfig({
        env: {
          [CONFIG_ENV]: JSON.stringify({
            plus: { disaster_recovery: { replicas: [replica({ host_key: 'ssh-ed25519 AAAAC3Nza' }, 'x')] } },
          }),
        },
      });
    expect(load).toThrow(/plus\.disaster_recovery\.replicas\[?\.?0\]?\.host_key/);
    expect(load).toThrow(/SHA256: and 43 base64 characters/);
  });
});
