import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { summarize, type Timing } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { REPO_ROOT } from '../test/helpers/process.js';

/**
 * Start-up of the `benchtrack` client: `--version` and `--help` (and one subcommand's help) through the
 * installed entry (bin/benchtrack.cjs -> dist/cli/main.js) and from source through tsx, each beside a bare
 * `node -e 0` measured in the same run, so the ratio shows what the client itself adds. Target: well under
 * 200 ms compiled. Each sample is a fresh process, timed from spawn to exit.
 *
 * Measured (`CLI_BENCH_ITERATIONS=30 node --import tsx bench/cli-startup.bench.ts`, 2 cores shared with other
 * work, load average 3 to 6, two runs): node -e 0 38-44 ms p50; compiled --version 72-80 ms p50 (p99 79-99),
 * --help 92-93 ms (p99 112-123), run --help 93-104 ms (p99 150); from source through tsx 340-500 ms.
 * Before only the requested command's module was loaded, compiled --help took 135 ms p50.
 */
const ITERATIONS = Number(process.env.CLI_BENCH_ITERATIONS ?? 20);
const WARMUP = 3;

function timeProcess(args: readonly string[]): Timing {
  const once = () => {
    const start = performance.now();
    const result = spawnSync(process.execPath, [...args], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    const elapsed = performance.now() - start;
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status}): ${result.stderr}`);
    return elapsed;
  };
  for (let i = 0; i < WARMUP; i++) once();
  return summarize(Array.from({ length: ITERATIONS }, once));
}

const report = new BenchReport(`benchtrack start-up (${ITERATIONS} fresh processes each, p50)`);
const add = (name: string, timing: Timing) =>
  report
    .add(
      name,
      'latency',
      timing.p50Ms * 1e6,
      `${timing.p50Ms.toFixed(1)} ms p50 (p99 ${timing.p99Ms.toFixed(1)} ms)`,
    )
    .add(name, 'latency-p99', timing.p99Ms * 1e6, `${timing.p99Ms.toFixed(1)} ms`);

const bare = timeProcess(['-e', '0']);
add('node -e 0', bare);

const compiled = join(REPO_ROOT, 'dist', 'cli', 'main.js');
if (existsSync(compiled)) {
  for (const args of [['--version'], ['--help'], ['run', '--help']]) {
    const name = `benchtrack ${args.join(' ')} (compiled)`;
    const timing = timeProcess([join(REPO_ROOT, 'bin', 'benchtrack.cjs'), ...args]);
    add(name, timing);
    report.ratio(name, 'node -e 0', timing.p50Ms, bare.p50Ms);
    report.add(
      name,
      'overhead',
      (timing.p50Ms - bare.p50Ms) * 1e6,
      `${(timing.p50Ms - bare.p50Ms).toFixed(1)} ms over node`,
    );
  }
} else {
  process.stderr.write(
    'cli-startup: dist/cli/main.js is missing; run `npm run build` to measure the compiled client\n',
  );
}

const tsx = pathToFileURL(join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
for (const args of [['--version'], ['--help']]) {
  const name = `benchtrack ${args.join(' ')} (tsx)`;
  const timing = timeProcess(['--import', tsx, join(REPO_ROOT, 'cli', 'main.ts'), ...args]);
  add(name, timing);
  report.ratio(name, 'node -e 0', timing.p50Ms, bare.p50Ms);
}
report.print();
