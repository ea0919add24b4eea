import { readFileSync } from 'node:fs';
import { builtinAdapters } from '../../plugins/adapters/index.js';
import { describeAdapterContract } from '../../kit/testing.js';

const sample = (path: string) =>
  readFileSync(new URL(`../fixtures/adapters/bencher/tool_output/${path}`, import.meta.url), 'utf8');
const consoleSample = (path: string) =>
  readFileSync(new URL(`../fixtures/adapters/console/${path}`, import.meta.url), 'utf8');

/** One output each built-in adapter must read (from the corpus). */
const SAMPLES: Record<string, string> = {
  json: 'json/report_latency.json',
  rust_bench: 'rust/bench/many.txt',
  rust_criterion: 'rust/criterion/many.txt',
  rust_iai: 'rust/iai/two.txt',
  rust_gungraun: 'rust/gungraun/with-dhat.txt',
  rust_gungraun_stdout: 'rust/gungraun/callgrind-all.txt',
  rust_gungraun_json: 'rust/gungraun/json_pretty_mixed_foreign_pretty_and_ndjson.txt',
  cpp_google: 'cpp/google/two.txt',
  cpp_catch2: 'cpp/catch2/issue_351.txt',
  go_bench: 'go/bench/three.txt',
  java_jmh: 'java/jmh/six.json',
  c_sharp_dot_net: 'c_sharp/dot_net/memory.json',
  js_benchmark: 'js/benchmark/issue_506.txt',
  js_time: 'js/time/four.txt',
  js_vitest: 'js/vitest/four.json',
  python_asv: 'python/asv/six.txt',
  python_pytest: 'python/pytest/four.json',
  ruby_benchmark: 'ruby/benchmark/two.txt',
  shell_hyperfine: 'shell/hyperfine/one.json',
  dart_benchmark_harness: 'dart/benchmark_harness/two.txt',
};

/** Console output the adapters of those harnesses read as well (test/fixtures/adapters/console). */
const CONSOLE_SAMPLES: Record<string, string> = {
  cpp_google: 'cpp/google/console.txt',
  cpp_catch2: 'cpp/catch2/no-analysis.txt',
  go_bench: 'go/bench/test-json.txt',
  js_time: 'js/time/node.txt',
  python_pytest: 'python/pytest/computing-stats.txt',
  shell_hyperfine: 'shell/hyperfine/terminal-progress.txt',
};

for (const plugin of builtinAdapters) {
  const path = SAMPLES[plugin.id];
  if (path === undefined) throw new Error(`no contract sample for built-in adapter ${plugin.id}`);
  const extra = CONSOLE_SAMPLES[plugin.id];
  describeAdapterContract(plugin, {
    sample: extra === undefined ? sample(path) : [sample(path), consoleSample(extra)],
  });
}
