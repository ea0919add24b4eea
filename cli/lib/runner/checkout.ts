import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Runs git in `cwd`, its output to the job's log; never asks for credentials (a runner has no one to ask). */
function git(
  args: readonly string[],
  cwd: string,
  output: (text: string) => void,
  signal: AbortSignal,
): Promise<void> {
  output(`$ git ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, signal, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (stdout) output(stdout);
        if (stderr) output(stderr);
        if (error && signal.aborted) reject(signal.reason);
        else if (error)
          reject(new Error(`git ${args[0]} failed: ${stderr.trim().split('\n').at(-1) ?? error.message}`));
        else resolve();
      },
    );
  });
}

/**
 * Puts the repository at `hash` into the empty directory `dir`: only that commit when the server lets a client
 * fetch a commit by its hash (most do), every branch and tag otherwise; then its submodules. `--` keeps a
 * repository URL from being read as an option.
 */
export async function checkout(
  repository: string,
  hash: string,
  dir: string,
  output: (text: string) => void,
  signal: AbortSignal,
): Promise<void> {
  await git(['init', '--quiet'], dir, output, signal);
  try {
    await git(['fetch', '--quiet', '--depth', '1', '--', repository, hash], dir, output, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    await git(
      [
        'fetch',
        '--quiet',
        '--',
        repository,
        '+refs/heads/*:refs/remotes/origin/*',
        '+refs/tags/*:refs/tags/*',
      ],
      dir,
      output,
      signal,
    );
  }
  await git(['checkout', '--quiet', '--detach', hash], dir, output, signal);
  if (existsSync(join(dir, '.gitmodules')))
    await git(
      ['submodule', 'update', '--quiet', '--init', '--recursive', '--depth', '1'],
      dir,
      output,
      signal,
    );
}
