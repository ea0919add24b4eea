import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Base URL the server announced, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `benchtrack-api` as users run it: the compiled program bundled in dist/, which the integration and end-to-end
 * projects' global setup (test/helpers/build-dist.ts) brings up to date. It starts in 0.3-0.7 s, where the
 * TypeScript sources through tsx took 1.2-2.2 s, and its worker threads load compiled tasks.
 */
export const API_PROGRAM = join(REPO_ROOT, 'dist', 'api-bundle', 'main.js');

/** The compiled program by default; `command` runs another entry. */
function spawnApi(env: NodeJS.ProcessEnv, command?: readonly string[]): ChildProcess {
  const args = command ?? [API_PROGRAM];
  return spawn(process.execPath, [...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, UV_THREADPOOL_SIZE: '16', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const LISTENING = /Server listening at (https?:\/\/127\.0\.0\.1:\d+)/;

/**
 * Starts the real `benchtrack-api` process and waits until it listens. With file logging, pass `logFile`: the
 * listening line is read from there instead of stderr.
 */
export async function startServerProcess(
  env: NodeJS.ProcessEnv,
  {
    logFile,
    command,
    timeoutMs = 60_000,
  }: { logFile?: string; command?: readonly string[]; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const child = spawnApi(env, command);
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const announced = () => {
    const text = logFile ? (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '') : stderr;
    return LISTENING.exec(text)?.[1];
  };
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      const found = announced();
      if (found) {
        clearInterval(poll);
        resolve(found);
      } else if (child.exitCode !== null || Date.now() > deadline) {
        clearInterval(poll);
        child.kill('SIGKILL');
        reject(new Error(`server did not start (exit code ${child.exitCode}):\n${stderr}`));
      }
    }, 25);
  });
  return {
    child,
    url,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      // a process that ended (by itself, or by a signal such as SIGKILL) sends no second exit event
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs `benchtrack-api` expecting it to stop by itself (e.g. invalid configuration). */
export async function runServerProcess(
  env: NodeJS.ProcessEnv,
  { command, timeoutMs = 60_000 }: { command?: readonly string[]; timeoutMs?: number } = {},
): Promise<RunResult> {
  const child = spawnApi(env, command);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}
