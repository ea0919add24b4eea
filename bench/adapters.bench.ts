import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AdapterPlugin } from '../core/index.js';
import { builtinAdapters } from '../plugins/adapters/index.js';
import { performance } from 'node:perf_hooks';
import { BenchReport } from './lib/report.js';

/**
 * Parse throughput of each text adapter on ~10 MB of its harness's output (the corpus fixtures of that
 * harness repeated, so every line is real output), and scaling: the time for twice the input divided by
 * the time for the input (about 2 means linear). `json` (BMF through the serde-exact JSON parser) is
 * measured the same way on a generated 10 MB document. Deterministic inputs; the fastest of repeated runs (the least disturbed by other work on the machine).
 */
const MB = 1024 * 1024;
const TOOL_OUTPUT = fileURLToPath(new URL('../test/fixtures/adapters/bencher/tool_output/', import.meta.url));
const CONSOLE = fileURLToPath(new URL('../test/fixtures/adapters/console/', import.meta.url));

/** Text adapters and the fixture directories their harness output comes from. */
const TEXT: Record<string, string> = {
  rust_bench: 'rust/bench',
  rust_criterion: 'rust/criterion',
  rust_iai: 'rust/iai',
  rust_gungraun_stdout: 'rust/gungraun',
  cpp_catch2: 'cpp/catch2',
  go_bench: 'go/bench',
  js_benchmark: 'js/benchmark',
  js_time: 'js/time',
  python_asv: 'python/asv',
  ruby_benchmark: 'ruby/benchmark',
  dart_benchmark_harness: 'dart/benchmark_harness',
};

/** Console formats read by the same adapters (test/fixtures/adapters/console): label, adapter, directory. */
const CONSOLE_FORMATS: [string, string, string][] = [
  ['shell_hyperfine/console', 'shell_hyperfine', 'shell/hyperfine'],
  ['cpp_google/console', 'cpp_google', 'cpp/google'],
  ['cpp_catch2/no-analysis', 'cpp_catch2', 'cpp/catch2'],
  ['python_pytest/console', 'python_pytest', 'python/pytest'],
  ['js_time/node', 'js_time', 'js/time'],
  ['go_bench/test-json', 'go_bench', 'go/bench'],
];

function harnessOutput(dir: string, root = TOOL_OUTPUT): string {
  const path = join(root, dir);
  return readdirSync(path)
    .sort()
    .filter((file) => !file.startsWith('json_'))
    .map((file) => readFileSync(join(path, file), 'utf8'))
    .join('\n');
}

function repeatTo(text: string, bytes: number): string {
  return text.repeat(Math.max(1, Math.round(bytes / Buffer.byteLength(text, 'utf8'))));
}

function bmfDocument(bytes: number): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const part = `"bench/${i}":{"latency":{"value":${i}.123456789,"lower_value":${i}.1,"upper_value":${i}.2}}`;
    parts.push(part);
    size += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

const adapters = new Map(builtinAdapters.map((adapter) => [adapter.id, adapter]));
const report = new BenchReport(
  'adapter parse throughput (10 MB of harness output) and scaling (20 MB / 10 MB)',
);

/** Fastest of `runs` timings, base and double interleaved so both see the same background load. */
function fastest(runs: number, ...inputs: (() => unknown)[]): number[] {
  const best = inputs.map(() => Number.POSITIVE_INFINITY);
  for (let run = 0; run < runs; run++) {
    inputs.forEach((fn, i) => {
      const start = performance.now();
      fn();
      best[i] = Math.min(best[i] as number, performance.now() - start);
    });
  }
  return best;
}

function measure(adapter: AdapterPlugin, small: string, large: string, label = adapter.id): void {
  if (adapter.parse(small, {}) === null) throw new Error(`${label} found nothing in its benchmark input`);
  const bytes = Buffer.byteLength(small, 'utf8');
  fastest(
    2,
    () => adapter.parse(small, {}),
    () => adapter.parse(large, {}),
  );
  const [baseMs, doubleMs] = fastest(
    9,
    () => adapter.parse(small, {}),
    () => adapter.parse(large, {}),
  ) as [number, number];
  const mbPerSecond = bytes / MB / (baseMs / 1000);
  report.add(`adapters/${label}`, 'megabytes-per-second', mbPerSecond, `${mbPerSecond.toFixed(1)} MB/s`);
  report.add(
    `adapters/${label}`,
    'latency',
    baseMs * 1e6,
    `${baseMs.toFixed(1)} ms for ${(bytes / MB).toFixed(1)} MB`,
  );
  report.ratio(`adapters/${label}/scaling`, '10 MB', doubleMs, baseMs);
}

for (const [id, dir] of Object.entries(TEXT)) {
  const adapter = adapters.get(id);
  if (!adapter) throw new Error(`no built-in adapter ${id}`);
  const output = harnessOutput(dir);
  measure(adapter, repeatTo(output, 10 * MB), repeatTo(output, 20 * MB));
}

for (const [label, id, dir] of CONSOLE_FORMATS) {
  const adapter = adapters.get(id);
  if (!adapter) throw new Error(`no built-in adapter ${id}`);
  const output = harnessOutput(dir, CONSOLE);
  measure(adapter, repeatTo(output, 10 * MB), repeatTo(output, 20 * MB), label);
}

const json = adapters.get('json') as AdapterPlugin;
measure(json, bmfDocument(10 * MB), bmfDocument(20 * MB));

report.print();
