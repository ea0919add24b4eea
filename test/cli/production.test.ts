import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startServerProcess } from '../helpers/process.js';
import { onPostgres } from '../helpers/engine.js';

/**
 * Production runs compiled JavaScript: copy the build (dist/, compiled by the end-to-end global setup), package.json
 * and bin/ into a scratch install that links the repository's node_modules, and check that `benchtrack-api` serves
 * and that worker tasks load from dist.
 */
const root = mkdtempSync(join(tmpdir(), 'benchtrack-production-'));

beforeAll(() => {
  for (const part of ['package.json', 'bin', 'dist'])
    cpSync(join(REPO_ROOT, part), join(root, part), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Starts the compiled program on an embedded database file of its own: about the build, not the engine.
describe.skipIf(onPostgres)('compiled build', () => {
  it('starts benchtrack-api from bin/ and answers /v0/server/version', async () => {
    const server = await startServerProcess(
      {
        BENCHTRACK_CONFIG: JSON.stringify({
          server: { bind_address: '127.0.0.1:0' },
          database: { file: join(root, 'data', 'benchtrack.db') },
        }),
      },
      { command: [join(root, 'bin', 'benchtrack-api.cjs')] },
    );
    try {
      const response = await fetch(`${server.url}/v0/server/version`);
      expect(await response.json()).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('runs worker tasks from the compiled JavaScript', () => {
    const script = `
      import { WorkerPool, taskUrl } from ${JSON.stringify(join(root, 'dist/workers/pool.js'))};
      import { createLogger } from ${JSON.stringify(join(root, 'dist/core/index.js'))};
      const pool = new WorkerPool(createLogger({ name: 't', log: { mode: 'stderr_terminal', level: 'error' } }));
      const values = new Float64Array([1, 2, 3]);
      const out = await pool.run('probe', { values }, [values.buffer]);
      await pool.close();
      process.stdout.write(JSON.stringify({ url: taskUrl('probe'), thread: out.threadId, doubled: [...out.doubled], moved: values.byteLength === 0 }));
    `;
    const output = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    );
    expect(output.url).toMatch(/\/dist\/workers\/tasks\/probe\.js$/);
    expect(output.thread).toBeGreaterThan(0);
    expect(output.doubled).toEqual([2, 4, 6]);
    expect(output.moved).toBe(true);
  });
});
