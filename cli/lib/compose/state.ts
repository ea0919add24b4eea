import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Service = 'api' | 'console';
export const SERVICES: readonly Service[] = ['api', 'console'];

/** What `up` recorded about a background process, beside its pid file. */
export interface ServiceState {
  readonly pid: number;
  readonly port: number;
  readonly url: string;
  readonly log: string;
  readonly started: string;
  /** The program and arguments, to tell our process from another that got the same pid later. */
  readonly command: readonly string[];
}

/**
 * Where `up` keeps pid files, logs, the API's configuration and (by default) its data: BENCHTRACK_STATE_DIR,
 * else $XDG_STATE_HOME/benchtrack, else ~/.local/state/benchtrack.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCHTRACK_STATE_DIR) return env.BENCHTRACK_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'benchtrack');
}

export const paths = (dir: string, service: Service) => ({
  pid: join(dir, `${service}.pid`),
  state: join(dir, `${service}.json`),
  log: join(dir, `${service}.log`),
});

export async function readState(dir: string, service: Service): Promise<ServiceState | undefined> {
  try {
    return JSON.parse(await readFile(paths(dir, service).state, 'utf8')) as ServiceState;
  } catch {
    return undefined;
  }
}

export async function writeState(dir: string, service: Service, state: ServiceState): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(paths(dir, service).pid, `${state.pid}\n`);
  await writeFile(paths(dir, service).state, `${JSON.stringify(state, null, 2)}\n`);
}

export async function clearState(dir: string, service: Service): Promise<void> {
  await rm(paths(dir, service).pid, { force: true });
  await rm(paths(dir, service).state, { force: true });
}

/**
 * Whether the recorded process still runs. On Linux its command line must match too, so a pid reused by an
 * unrelated process after a reboot is never signalled.
 */
export function isRunning(state: ServiceState): boolean {
  try {
    process.kill(state.pid, 0);
  } catch {
    return false;
  }
  try {
    const cmdline = readFileSync(`/proc/${state.pid}/cmdline`, 'utf8').split('\0');
    return state.command.every((part) => cmdline.includes(part));
  } catch {
    // No /proc (macOS): the signal check above is all there is.
    return true;
  }
}
