import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const HOST = fileURLToPath(new URL('../host.ts', import.meta.url));

it('benchtrack-console listens where told, serves the app, and stops on SIGTERM', async () => {
  const root = mkdtempSync(join(tmpdir(), 'console-bin-'));
  writeFileSync(join(root, 'index.html'), '<html><head></head><body>app</body></html>');
  const child = spawn(process.execPath, ['--import', 'tsx', HOST], {
    env: {
      PATH: process.env.PATH,
      BENCHTRACK_CONSOLE_ROOT: root,
      BENCHTRACK_CONSOLE_PORT: '0',
      BENCHTRACK_CONSOLE_HOST: '127.0.0.1',
      BENCHTRACK_API_URL: 'http://127.0.0.1:61999',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /Console listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stderr).toContain('API at http://127.0.0.1:61999');
    const html = await (await fetch(`${url}/console/projects`)).text();
    expect(html).toContain('app');
    expect(html).toContain('http://127.0.0.1:61999');
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  } finally {
    child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});

it('benchtrack-console exits with a message when there is no build', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', HOST], {
    env: {
      PATH: process.env.PATH,
      BENCHTRACK_CONSOLE_ROOT: join(tmpdir(), 'no-console-here'),
      BENCHTRACK_CONSOLE_PORT: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  expect(code).toBe(1);
  expect(stderr).toMatch(/benchtrack-console: the console is not built: .* run npm run build/);
});
