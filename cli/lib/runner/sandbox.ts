import { execFile } from 'node:child_process';
import { UsageError } from '../errors.js';

/** A way to run a command without network: the tool and the words that go before the command. */
export interface NetworkSandbox {
  readonly tool: 'bwrap' | 'unshare';
  readonly wrap: readonly string[];
}

/**
 * The candidates, best first. bubblewrap gives the command a network namespace with only a loopback interface,
 * up, and dies with the agent. unshare (util-linux) gives one whose loopback is down; without root it needs
 * unprivileged user namespaces (`--map-current-user` keeps the user's own uid inside).
 */
function candidates(root: boolean): NetworkSandbox[] {
  return [
    { tool: 'bwrap', wrap: ['bwrap', '--dev-bind', '/', '/', '--unshare-net', '--die-with-parent', '--'] },
    {
      tool: 'unshare',
      wrap: root ? ['unshare', '--net', '--'] : ['unshare', '--user', '--map-current-user', '--net', '--'],
    },
  ];
}

function works(wrap: readonly string[]): Promise<string | undefined> {
  const [file, ...args] = wrap;
  return new Promise((resolve) => {
    execFile(file ?? '', [...args, 'true'], { timeout: 10_000 }, (error, _stdout, stderr) =>
      resolve(
        error
          ? (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'not installed'
            : stderr.trim() || error.message
          : undefined,
      ),
    );
  });
}

/**
 * The first sandbox that runs a command here (`--no-network`); a clear error naming what each one said when none
 * does, instead of running jobs with network the operator asked to cut.
 */
export async function networkSandbox(root = process.getuid?.() === 0): Promise<NetworkSandbox> {
  const problems: string[] = [];
  for (const candidate of candidates(root)) {
    const problem = await works(candidate.wrap);
    if (problem === undefined) return candidate;
    problems.push(`${candidate.wrap[0]}: ${problem}`);
  }
  throw new UsageError(
    `--no-network needs bubblewrap or unshare able to make a network namespace, and neither works here (${problems.join('; ')}): install bubblewrap (apt install bubblewrap), allow unprivileged user namespaces, run the runner as root, or drop --no-network`,
  );
}
