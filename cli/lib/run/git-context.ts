import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename } from 'node:path';

/** Prefix of run context keys (core/reports/run-context.ts reads them). */
const PREFIX = 'benchtrack.dev/v0/';

function git(args: readonly string[], cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', [...args], { cwd, timeout: 5000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || undefined),
    );
  });
}

/** The repository name: the last part of the origin URL, else the directory of the work tree. */
function repositoryName(origin: string | undefined, topLevel: string | undefined): string | undefined {
  const fromOrigin = origin
    ?.replace(/\/+$/, '')
    .split(/[/:]/)
    .pop()
    ?.replace(/\.git$/, '');
  return fromOrigin || (topLevel ? basename(topLevel) : undefined);
}

const OS: Record<string, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

/** A stable, anonymous identifier of this machine: a hash of its machine id (or host name). */
async function fingerprint(): Promise<string> {
  const machineId = await readFile('/etc/machine-id', 'utf8').catch(() => hostname());
  return BigInt(`0x${createHash('sha256').update(machineId.trim()).digest('hex').slice(0, 16)}`).toString(36);
}

/**
 * The run context sent with `POST /v0/run`: repository name and root commit, branch ref and name, head commit,
 * OS and machine fingerprint. The server derives the default branch, hash, testbed and (without --project)
 * the project from it. Outside a git work tree only the testbed keys are sent. In GitHub Actions a pull
 * request's checkout is detached, so the branch name comes from GITHUB_HEAD_REF.
 */
export async function runContext(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  const [topLevel, ref, head, roots, origin, print] = await Promise.all([
    git(['rev-parse', '--show-toplevel'], cwd),
    git(['symbolic-ref', '-q', 'HEAD'], cwd),
    git(['rev-parse', 'HEAD'], cwd),
    git(['rev-list', '--max-parents=0', 'HEAD'], cwd),
    git(['config', '--get', 'remote.origin.url'], cwd),
    fingerprint(),
  ]);
  const headRef = env.GITHUB_HEAD_REF ? `refs/heads/${env.GITHUB_HEAD_REF}` : ref;
  const context: Record<string, string | undefined> = {
    'repo/name': repositoryName(origin, topLevel),
    // The oldest root commit identifies the repository across clones and forks.
    'repo/hash': roots?.split('\n').pop(),
    'branch/ref': headRef,
    'branch/ref/name': headRef?.replace(/^refs\/heads\//, ''),
    'branch/hash': head,
    'testbed/os': OS[process.platform] ?? process.platform,
    'testbed/fingerprint': print,
  };
  return Object.fromEntries(
    Object.entries(context)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => [`${PREFIX}${key}`, value]),
  );
}
