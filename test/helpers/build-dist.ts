import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './process.js';

const run = promisify(execFile);

/** The console's production build (`npm run build` makes it, and so does this setup). */
export const CONSOLE_BUILD = join(REPO_ROOT, 'dist', 'console', 'app');

/** The newest modification time of the files under `dir`, leaving out the directories `skip` names. */
function newest(dir: string, skip: ReadonlySet<string> = new Set()): number {
  return Math.max(
    ...readdirSync(dir)
      .filter((name) => !skip.has(join(dir, name)))
      .map((name) => {
        const path = join(dir, name);
        const stat = statSync(path);
        return stat.isDirectory() ? newest(path, skip) : stat.mtimeMs;
      }),
  );
}

const DIST = join(REPO_ROOT, 'dist');
const BUNDLES = ['cli-bundle', 'api-bundle'].map((name) => join(DIST, name));

/**
 * Whether both bundles are newer than every file tsc wrote and than the installed packages: bundling again takes
 * 1.5 s before the first test.
 */
function bundlesAreCurrent(): boolean {
  const mains = BUNDLES.map((bundle) => join(bundle, 'main.js'));
  if (!mains.every((main) => existsSync(main))) return false;
  const inputs = Math.max(
    newest(DIST, new Set([...BUNDLES, CONSOLE_BUILD])),
    statSync(join(REPO_ROOT, 'node_modules', '.package-lock.json')).mtimeMs,
  );
  return Math.min(...mains.map((main) => statSync(main).mtimeMs)) >= inputs;
}

function consoleIsCurrent(): boolean {
  const index = join(CONSOLE_BUILD, 'index.html');
  return existsSync(index) && statSync(index).mtimeMs >= newest(join(REPO_ROOT, 'console', 'app'));
}

async function node(script: string, args: string[]): Promise<void> {
  try {
    await run(process.execPath, [join(REPO_ROOT, script), ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${script} ${args.join(' ')} failed:\n${failure.stdout ?? ''}${failure.stderr ?? failure.message}`,
      { cause: error },
    );
  }
}

/** Set in the vitest process once dist/ is up to date, so that the next project's global setup does not look again. */
const BUILT = 'BENCHTRACK_TEST_DIST_BUILT';

/**
 * Global setup of the projects that spawn the compiled programs (integration, integration-postgres, e2e), as users
 * run them (a spawn from dist/ starts in 0.3-0.7 s, from the TypeScript sources through tsx in 1.2-2.2 s); the
 * browser tests serve the built console. tsc runs in build mode, which sees from dist/.tsbuildinfo that nothing
 * changed without parsing the program (0.8 s of CPU instead of 11 s for `tsc -p` on an up-to-date dist/), and emits
 * without type checking (`--noCheck`): types are the typecheck step's business, and `npm run build` still checks.
 * The client and the API are then bundled (scripts/bundle.mjs), as `npm run build` does, unless the bundles are
 * newer than what they are made of. The console is built at the same time, only when dist/console/app is older
 * than one of its sources. Once per run.
 */
export default async function buildDist(): Promise<void> {
  if (process.env[BUILT]) return;
  await Promise.all([
    node('node_modules/typescript/bin/tsc', ['--build', 'tsconfig.build.json', '--noCheck']).then(() =>
      // the client and the API users run are bundles of what tsc wrote
      bundlesAreCurrent() ? undefined : node('scripts/bundle.mjs', []),
    ),
    buildConsole(),
  ]);
  process.env[BUILT] = '1';
}

/** Builds the console into {@link CONSOLE_BUILD} when it is older than one of its sources. */
export async function buildConsole(): Promise<void> {
  if (consoleIsCurrent()) return;
  await node('node_modules/vite/bin/vite.js', [
    'build',
    '--config',
    'console/vite.config.ts',
    '--logLevel',
    'error',
  ]);
}
