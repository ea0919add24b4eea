import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { UsageError } from '../errors.js';

/** What `benchtrack run` measures, from its arguments. */
export interface RunInput {
  /** One string: run through the shell; several (or `exec`): run directly. */
  readonly command: readonly string[];
  readonly exec: boolean;
  readonly shell?: string | undefined;
  readonly flag?: string | undefined;
  readonly files: readonly string[];
  readonly fileSizes: readonly string[];
  readonly buildTime: boolean;
  readonly iterations: number;
  readonly allowFailure: boolean;
  /** Echo the command's output (to stderr, so stdout holds only the report). */
  readonly echo: boolean;
  /** Where and how a runner runs a job's command; a local run leaves it out. */
  readonly sandbox?: CommandSandbox | undefined;
}

/** How the runner agent runs a job's command: in its work directory, apart from the agent, stoppable. */
export interface CommandSandbox {
  /** Working directory; result files are read relative to it. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Receives stdout and stderr as they come (instead of the echo to stderr). */
  readonly output: (chunk: Buffer) => void;
  /** Stops the command and everything it started (its process group) with SIGKILL. */
  readonly signal: AbortSignal;
  /** Program and arguments that run the command (`unshare --net --`, say). */
  readonly wrap: readonly string[];
}

export interface Collected {
  /** One string per iteration: harness output, file content or BMF (build time, file size). */
  readonly results: string[];
  readonly startTime: Date;
  readonly elapsedMs: number;
}

/** The most result files one run may read (reference). */
const MAX_FILES = 255;

/**
 * Runs the benchmark command `iterations` times (or reads files, or stdin) and returns the result strings.
 * A failing command aborts the run unless `allowFailure`, which skips that iteration.
 */
export async function collectResults(
  input: RunInput,
  stdin: () => Promise<string | undefined>,
): Promise<Collected> {
  if (input.files.length + input.fileSizes.length > MAX_FILES) {
    throw new UsageError(`at most ${MAX_FILES} --file and --file-size paths per run`);
  }
  const startTime = new Date();
  const start = performance.now();
  const results: string[] = [];
  const hasCommand = input.command.length > 0;
  if (!hasCommand && input.files.length === 0 && input.fileSizes.length === 0) {
    if (input.buildTime) throw new UsageError('--build-time needs a command to time');
    const piped = await stdin();
    if (piped === undefined || piped.trim() === '') {
      throw new UsageError(
        'nothing to run: pass a benchmark command (`benchtrack run "cargo bench"`), --file, --file-size, or pipe the output to stdin',
      );
    }
    results.push(piped);
    return { results, startTime, elapsedMs: performance.now() - start };
  }
  // Files alone are read once: --iter repeats the command that writes them.
  for (let i = 0; i < (hasCommand ? input.iterations : 1); i++) {
    let stdout = '';
    let seconds: number | undefined;
    if (hasCommand) {
      input.sandbox?.signal.throwIfAborted();
      const outcome = await runCommand(input);
      // a stopped command is no failed iteration: the stop's reason ends the run
      input.sandbox?.signal.throwIfAborted();
      if (outcome.failure) {
        if (!input.allowFailure)
          throw new UsageError(`${outcome.failure}; pass --allow-failure to skip failed iterations`);
        process.stderr.write(`benchtrack: ${outcome.failure}; skipped (--allow-failure)\n`);
        continue;
      }
      stdout = outcome.stdout;
      seconds = outcome.seconds;
    }
    results.push(...(await iterationResults(input, stdout, seconds)));
  }
  if (results.length === 0) throw new UsageError('every iteration failed: no results to send');
  return { results, startTime, elapsedMs: performance.now() - start };
}

async function iterationResults(
  input: RunInput,
  stdout: string,
  seconds: number | undefined,
): Promise<string[]> {
  const out: string[] = [];
  const at = (file: string) => (input.sandbox ? resolve(input.sandbox.cwd, file) : file);
  for (const file of input.files) out.push(await readResultFile(at(file), file));
  const bmf: Record<string, Record<string, { value: number }>> = {};
  if (input.buildTime && seconds !== undefined) {
    bmf[commandText(input)] = { 'build-time': { value: Math.round(seconds * 100) / 100 } };
  }
  for (const file of input.fileSizes) bmf[file] = { 'file-size': { value: await fileSize(at(file), file) } };
  if (Object.keys(bmf).length > 0) out.push(JSON.stringify(bmf));
  // The harness output is the result unless the files or the BMF above replace it (reference).
  else if (input.files.length === 0) out.push(stdout);
  return out;
}

async function readResultFile(path: string, file: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

async function fileSize(path: string, file: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    throw new UsageError(
      `cannot read --file-size ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

/** The command as a user reads it: the benchmark name of `--build-time`. */
export function commandText(input: Pick<RunInput, 'command'>): string {
  return input.command.join(' ');
}

interface Outcome {
  readonly stdout: string;
  readonly seconds: number;
  readonly failure?: string;
}

/** Runs the command once, echoing its output and capturing stdout. */
function runCommand(input: RunInput): Promise<Outcome> {
  const direct = input.exec || input.command.length > 1;
  const sandbox = input.sandbox;
  const [file, ...args] = [
    ...(sandbox?.wrap ?? []),
    ...(direct
      ? input.command
      : [input.shell ?? defaultShell(), input.flag ?? defaultFlag(), input.command[0] ?? '']),
  ];
  const echo = sandbox?.output ?? (input.echo ? (chunk: Buffer) => process.stderr.write(chunk) : undefined);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = sandbox
      ? // a process group of its own, so that a stop kills whatever the command started too
        spawn(file ?? '', args, {
          cwd: sandbox.cwd,
          env: sandbox.env,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        })
      : spawn(file ?? '', args, { stdio: ['inherit', 'pipe', 'pipe'] });
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    sandbox?.signal.addEventListener('abort', stop, { once: true });
    child.once('close', () => sandbox?.signal.removeEventListener('abort', stop));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      echo?.(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      echo?.(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          `cannot run ${file}: ${error.code === 'ENOENT' ? 'command not found' : error.message}${direct ? '' : ' (set another shell with --shell)'}`,
        ),
      ),
    );
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      const stdout = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r?\n$/, '');
      const failure =
        code === 0
          ? undefined
          : `the command \`${commandText(input)}\` ${signal ? `was killed by ${signal}` : `exited with status ${code}`}`;
      resolve({ stdout, seconds, ...(failure ? { failure } : {}) });
    });
  });
}

function defaultShell(): string {
  return process.platform === 'win32' ? 'cmd' : '/bin/sh';
}

function defaultFlag(): string {
  return process.platform === 'win32' ? '/C' : '-c';
}
