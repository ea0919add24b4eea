import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly input?: string;
  /** Added to a minimal environment (PATH and HOME only, so the developer's BENCHTRACK_* never leak in). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** The program's entry: the repository's build unless another install is under test. */
  readonly program?: readonly string[];
}

/** The compiled client, as users run it (the end-to-end project's global setup builds dist/). */
export const CLI = [`${ROOT}dist/cli-bundle/main.js`];

function environment(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

/** Runs the real, compiled `benchtrack` CLI in a child process. */
export function runCli(args: readonly string[], input?: string, options: CliOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [...(options.program ?? CLI), ...args], {
    cwd: options.cwd ?? ROOT,
    input: input ?? options.input ?? '',
    encoding: 'utf8',
    env: environment(options.env),
    timeout: 60_000,
    // the OpenAPI document alone, pretty-printed, is over a megabyte (spawnSync's default limit)
    maxBuffer: 64 * 2 ** 20,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The same without blocking this process: needed when the test itself serves HTTP to the CLI (the fake GitHub
 * API), which a synchronous child would starve.
 */
export function runCliAsync(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.program ?? CLI), ...args], {
      cwd: options.cwd ?? ROOT,
      env: environment(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
