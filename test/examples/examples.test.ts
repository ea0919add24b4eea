import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('examples written against the published plugin kit', () => {
  it('include an adapter, a model and a storage engine', () => {
    expect(examples).toEqual(expect.arrayContaining(['adapter-ndjson', 'model-ewma', 'storage-memory']));
  });

  it.each(examples)(
    '%s passes its own tests, the kit contract suite included',
    (name) => {
      const dir = join(scratch, name);
      cpSync(join(REPO_ROOT, 'examples', name), dir, { recursive: true });
      const report = join(scratch, `${name}.json`);
      const run = spawnSync(
        process.execPath,
        [
          join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--root',
          dir,
          '--reporter=json',
          `--outputFile=${report}`,
        ],
        { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } },
      );
      const results = existsSync(report)
        ? (JSON.parse(readFileSync(report, 'utf8')) as {
            numPassedTests: number;
            numFailedTests: number;
            testResults: {
              assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
            }[];
          })
        : undefined;
      const failures = (results?.testResults ?? [])
        .flatMap((file) => file.assertionResults)
        .filter((test) => test.status === 'failed')
        .map((test) => `${test.fullName}: ${test.failureMessages.join('\n').slice(0, 2000)}`);
      expect(run.status, `${run.stdout}\n${run.stderr}\n${failures.join('\n')}`).toBe(0);
      expect(results?.numFailedTests).toBe(0);
      // the contract suite's cases and the example's own
      expect(results?.numPassedTests).toBeGreaterThan(6);
    },
    120_000,
  );
});
