import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfigDocument } from '../../core/index.js';
import { withSharedSnapshots } from '../../core/replication/shared-snapshots.js';
import { storageOpener } from '../../server/composition.js';
import { onPostgres } from '../helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-shared-snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(onPostgres)('replica snapshots shared while nothing is committed', () => {
  it('serves requests at one commit count from one staged copy, and takes a new one after a commit', async () => {
    const { config } = parseConfigDocument(
      {
        security: { secret_key: 'shared-snapshots-secret-0123456789' },
        database: { file: join(dir, 'live.db') },
      },
      { kind: 'default', description: 'shared snapshots test' },
    );
    const open = await storageOpener(
      config,
      createLogger({ name: 't', log: { mode: 'stderr_terminal', level: 'error' } }),
    );
    const storage = await open(join(dir, 'live.db'));
    try {
      await storage.transaction((tx) => tx.meta.set('first', '1'));
      const staging = join(dir, 'shared');
      mkdirSync(staging);
      const shared = withSharedSnapshots(storage.replication!, staging);
      const file = (name: string) => join(dir, `${name}.db`);

      // two replicas starting together, then one retrying a failed upload
      const [a, b] = await Promise.all([shared.snapshot(file('a')), shared.snapshot(file('b'))]);
      const c = await shared.snapshot(file('c'));
      expect(b).toEqual(a);
      expect(c).toEqual(a);
      const inode = statSync(file('a')).ino;
      expect([statSync(file('b')).ino, statSync(file('c')).ino]).toEqual([inode, inode]);
      expect(readdirSync(staging)).toHaveLength(1);

      await storage.transaction((tx) => tx.meta.set('second', '2'));
      const d = await shared.snapshot(file('d'));
      expect(statSync(file('d')).ino).not.toBe(inode);
      expect([a.tables.server_meta?.rows, d.tables.server_meta?.rows]).toEqual(['1', '2']);
      // the copy before the commit serves nobody any more: only the new one stays staged
      expect(readdirSync(staging)).toHaveLength(1);
      const restored = await open(file('d'));
      try {
        expect(await restored.read((r) => r.meta.get('second'))).toBe('2');
      } finally {
        await restored.close();
      }
    } finally {
      await storage.close();
    }
  });
});
