import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.js';

/**
 * The packages in examples/ are plugins written only against the published kit. Each is copied beside a scratch
 * install of Benchtrack (its package.json, the dist/ that the end-to-end global setup built and the adapter corpus,
 * the package's `files`, as `npm install` gives them), where `benchtrack/plugin-kit` resolves through the package's `exports` as it does for
 * any plugin author; then its own tests run with vitest. A name the kit does not export fails here.
 */
const scratch = mkdtempSync(join(tmpdir(), 'benchtrack-examples-'));
const modules = join(scratch, 'node_modules');
const installed = join(modules, 'benchtrack');
mkdirSync(installed, { recursive: true });
cpSync(join(REPO_ROOT, 'package.json'), join(installed, 'package.json'));
symlinkSync(join(REPO_ROOT, 'dist'), join(installed, 'dist'));
symlinkSync(join(REPO_ROOT, 'bin'), join(installed, 'bin'));
symlinkSync(join(REPO_ROOT, 'node_modules'), join(installed, 'node_modules'));
mkdirSync(join(installed, 'test', 'fixtures'), { recursive: true });
symlinkSync(join(REPO_ROOT, 'test', 'fixtures', 'adapters'), join(installed, 'test', 'fixtures', 'adapters'));
// the examples' dev dependencies: the same copies as the kit's, so the kit's suites register with this vitest
for (const name of ['vitest', 'fast-check'])
  symlinkSync(join(REPO_ROOT, 'node_modules', name), join(modules, name));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const examples = readdirSync(join(REPO_ROOT, 'examples'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/**
 * The examples' own tests, in one vitest run with each package as a project of its own (its directory, as its
 * `npm test` would run it, its own config if it has one): one start of vitest instead of three (the file alone:
 * 21.7 s of wall time and 19.7 s of CPU before, 14.0 s and 15.8 s after, at load 4).
 *
 * Paths keep their symbolic links (`preserveSymlinks`), so the installed Benchtrack stays under node_modules/, where
 * vitest loads a dependency as Node does, untransformed, as after a real `npm install`. Followed, the links led
 * into the repository, and vitest transformed dist/ for every test file: the examples' run took 11.3 s of wall
 * time and 12.5 s of CPU, now 6.6 s and 7.5 s.
 */
function runExamples(): { run: SpawnSyncReturns<string>; results: JsonReport | undefined } {
  const projects = examples.map((name) => {
    cpSync(join(REPO_ROOT, 'examples', name), join(scratch, name), { recursive: true });
    const own = ['vitest.config.js', 'vitest.config.mjs'].find((file) =>
      existsSync(join(scratch, name, file)),
    );
    return {
      extends: own ? `./${name}/${own}` : true,
      resolve: { preserveSymlinks: true },
      test: { name, root: name },
    };
  });
  writeFileSync(
    join(scratch, 'vitest.config.mjs'),
    `export default ${JSON.stringify({ test: { projects } })};\n`,
  );
  const report = join(scratch, 'examples.json');
  const run = spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      scratch,
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    { cwd: scratch, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } },
  );
  const results = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as JsonReport) : undefined;
  return { run, results };
}

describe('examples written against the published plugin kit', () => {
  let examplesRun: ReturnType<typeof runExamples>;
  beforeAll(() => {
    examplesRun = runExamples();
  }, 180_000);

  it('include an adapter, a model and a storage engine', () => {
    expect(examples).toEqual(expect.arrayContaining(['adapter-ndjson', 'model-ewma', 'storage-memory']));
  });

  it.each(examples)('%s passes its own tests, the kit contract suite included', (name) => {
    const { run, results } = examplesRun;
    const files = (results?.testResults ?? []).filter((file) =>
      file.name.startsWith(join(scratch, name, '/')),
    );
    const tests = files.flatMap((file) => file.assertionResults);
    const failures = [
      ...files.filter((file) => file.status === 'failed').map((file) => `${file.name}: ${file.message}`),
      ...tests
        .filter((test) => test.status === 'failed')
        .map((test) => `${test.fullName}: ${test.failureMessages.join('\n').slice(0, 2000)}`),
    ];
    // the failures themselves in the message: vitest shows a long array as [ …(2) ]
    expect(failures, `${failures.join('\n\n')}\n${run.stderr}`).toEqual([]);
    // the contract suite's cases and the example's own
    expect(tests.filter((test) => test.status === 'passed').length).toBeGreaterThan(6);
  });

  it('all pass in the one run (no file failed to load, nothing else failed)', () => {
    const { run, results } = examplesRun;
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results?.numFailedTests).toBe(0);
  });
});
