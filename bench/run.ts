import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * Runs every `bench/*.bench.ts` (or those named: `npm run bench -- adapters models`) each in its own process,
 * and merges their BMF. `--out FILE` writes the merged BMF to FILE. `--engine duckdb,postgres` goes to the benches
 * that measure on either storage engine (perf, ingest; both by default when PostgreSQL is installed).
 */
const here = dirname(fileURLToPath(import.meta.url));
const { values, positionals: names } = parseArgs({
  options: { out: { type: 'string' }, engine: { type: 'string' } },
  allowPositionals: true,
});
const out = values.out;
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => names.length === 0 || names.includes(file.replace('.bench.ts', '')));
if (files.length === 0) {
  process.stderr.write(
    `no benchmark matches ${names.join(', ')}; available: ${readdirSync(here)
      .filter((f) => f.endsWith('.bench.ts'))
      .join(', ')}\n`,
  );
  process.exit(1);
}
const merged: Record<string, unknown> = {};
let failed = false;
for (const file of files) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(here, file), ...(values.engine ? ['--engine', values.engine] : [])],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      env: { ...process.env, UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) {
    failed = true;
    process.stderr.write(`${file} failed with exit code ${result.status}\n`);
    continue;
  }
  for (const line of result.stdout.split('\n')) {
    if (line.startsWith('{')) Object.assign(merged, JSON.parse(line));
  }
}
const json = JSON.stringify(merged, null, 2);
if (out) writeFileSync(out, json);
else process.stdout.write(`${json}\n`);
process.exit(failed ? 1 : 0);
