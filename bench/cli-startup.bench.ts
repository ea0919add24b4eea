import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { summarize, type Timing } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { REPO_ROOT } from '../test/helpers/process.js';

/**
 * Start-up of the `benchtrack` client: `--version`, `--help`, one subcommand's help and a dry run that parses a
 * result file, through the installed entry (bin/benchtrack.cjs -> dist/cli-bundle/main.js) and through tsc's
 * unbundled modules (dist/cli/main.js, the reference for what bundling saves), and from source through tsx, each
 * beside a bare `node -e 0` measured in the same run. Each sample is a fresh process, timed from spawn to exit.
 *
 * Measured 2026-11-27 (`CLI_BENCH_ITERATIONS=20 npx tsx bench/cli-startup.bench.ts`, 2 cores, load average 2.3,
 * nothing else running), p50: node -e 0 33 ms; --version 62 ms bundled against 82 ms unbundled (0.76x); --help
 * 93 against 92 ms and run --help 86 against 93 ms (these load only commander and the command's own module
 * either way); run --dry-run of a result file 231 against 344 ms (0.67x: zod and core's schemas, 95 and ~30 modules
 * unbundled); from source through tsx 357-395 ms. Earlier, before the bundle: compiled --help 92-93 ms, and 135 ms
 * before only the requested command's module was loaded.
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

const bundled = join(REPO_ROOT, 'dist', 'cli-bundle', 'main.js');
const compiled = join(REPO_ROOT, 'dist', 'cli', 'main.js');
if (existsSync(bundled) && existsSync(compiled)) {
  // a dry run parses a result file and validates the report with core's schemas, as `run` does before sending
  const bmf = join(mkdtempSync(join(tmpdir(), 'benchtrack-cli-bench-')), 'bmf.json');
  writeFileSync(bmf, JSON.stringify({ 'bench-a': { latency: { value: 1 } } }));
  const dryRun = ['run', '--adapter', 'json', '--file', bmf, '--dry-run'];
  for (const args of [['--version'], ['--help'], ['run', '--help'], dryRun]) {
    // the installed bin runs the bundle; tsc's modules, unbundled, are the reference for what bundling saves
    const label = args === dryRun ? 'run --dry-run (a result file)' : args.join(' ');
    const name = `benchtrack ${label} (bin, bundled)`;
    const timing = timeProcess([join(REPO_ROOT, 'bin', 'benchtrack.cjs'), ...args]);
    const unbundledName = `benchtrack ${label} (dist/cli, unbundled)`;
    const unbundled = timeProcess([compiled, ...args]);
    add(name, timing);
    add(unbundledName, unbundled);
    report.ratio(name, 'node -e 0', timing.p50Ms, bare.p50Ms);
    report.ratio(name, unbundledName, timing.p50Ms, unbundled.p50Ms);
    report.add(
      name,
      'overhead',
      (timing.p50Ms - bare.p50Ms) * 1e6,
      `${(timing.p50Ms - bare.p50Ms).toFixed(1)} ms over node`,
    );
  }
} else {
  process.stderr.write(
    'cli-startup: dist/cli-bundle/main.js or dist/cli/main.js is missing; run `npm run build` to measure the compiled client\n',
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
