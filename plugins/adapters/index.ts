import type { AdapterPlugin } from '../../kit/index.js';
import cSharpDotNet from './c-sharp-dot-net.js';
import cppCatch2 from './cpp-catch2.js';
import cppGoogle from './cpp-google.js';
import dartBenchmarkHarness from './dart-benchmark-harness.js';
import goBench from './go-bench.js';
import javaJmh from './java-jmh.js';
import jsBenchmark from './js-benchmark.js';
import jsTime from './js-time.js';
import jsVitest from './js-vitest.js';
import json from './json.js';
import pythonAsv from './python-asv.js';
import pythonPytest from './python-pytest.js';
import rubyBenchmark from './ruby-benchmark.js';
import rustBench from './rust-bench.js';
import rustCriterion from './rust-criterion.js';
import rustGungraun from './rust-gungraun.js';
import rustGungraunJson from './rust-gungraun-json.js';
import rustGungraunStdout from './rust-gungraun-stdout.js';
import rustIai from './rust-iai.js';
import shellHyperfine from './shell-hyperfine.js';

/**
 * The built-in adapters, in the reference's catalogue order. Registered by the composition roots through the
 * same contract third-party adapters use; language groups and `magic` are resolved by core's
 * `selectAdapter`, so no adapter imports another.
 */
export const builtinAdapters: readonly AdapterPlugin[] = [
  json,
  rustBench,
  rustCriterion,
  rustIai,
  rustGungraun,
  rustGungraunStdout,
  rustGungraunJson,
  cppGoogle,
  cppCatch2,
  goBench,
  javaJmh,
  cSharpDotNet,
  jsBenchmark,
  jsTime,
  jsVitest,
  pythonAsv,
  pythonPytest,
  rubyBenchmark,
  shellHyperfine,
  dartBenchmarkHarness,
];

export default builtinAdapters;
