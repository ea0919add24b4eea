import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigDocument } from '../../core/index.js';
import { composeApi } from '../../server/composition.js';

const root = mkdtempSync(join(tmpdir(), 'benchtrack-memory-limit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Composes the API from a configuration document and returns the memory_limit the database opened with. */
async function openedWith(database: Record<string, unknown>, name: string): Promise<unknown> {
  const log = join(root, `${name}.log`);
  const { config } = parseConfigDocument(
    {
      security: { secret_key: 'memory-limit-secret-0123456789' },
      database: { file: join(root, `${name}.db`), ...database },
      logging: { log: { file: { path: log, if_exists: 'truncate', level: 'info' } } },
    },
    { kind: 'default', description: 'test' },
  );
  const api = await composeApi(config, { baseDir: root });
  await api.close();
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((entry) => entry.msg === 'database opened')?.memory_limit;
}

describe('database.memory_limit', () => {
  it('is the memory ceiling of the embedded database', async () => {
    expect(await openedWith({ memory_limit: '256MiB' }, 'set')).toBe('256.0 MiB');
  });

  it('is 1GiB when the configuration leaves it out', async () => {
    expect(await openedWith({}, 'default')).toBe('1.0 GiB');
  });
});
