import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import { stopServices } from './down.js';
import { serviceProgram } from './programs.js';
import { isRunning, paths, readState, writeState, type Service, type ServiceState } from './state.js';

export interface UpOptions {
  readonly services: readonly Service[];
  readonly apiPort: number;
  readonly consolePort: number;
  readonly apiEnv: readonly string[];
  readonly consoleEnv: readonly string[];
  readonly apiVolume?: string | undefined;
  readonly consoleVolume?: string | undefined;
  readonly waitSeconds: number;
}

/** `KEY=VALUE` flags as an environment. */
function environment(pairs: readonly string[], flag: string): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new UsageError(`${flag} takes KEY=VALUE, got "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/**
 * The API's configuration document in the state directory, passed as BENCHTRACK_CONFIG_PATH, so a
 * `benchtrack server config update` is saved there and survives the next `up`. This run's port, console URL
 * and data location are set in it; everything else the user changed stays, and the secret key is made once
 * so sessions and API tokens outlive restarts. A console URL that is not local is the user's and stays.
 */
async function apiConfig(dir: string, options: UpOptions): Promise<{ path: string; database: string }> {
  const path = join(dir, 'api-config.json');
  const document = JSON.parse(await readFile(path, 'utf8').catch(() => '{}')) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  const database =
    options.apiVolume !== undefined
      ? join(resolve(options.apiVolume), 'benchtrack.db')
      : typeof document.database?.file === 'string'
        ? document.database.file
        : join(dir, 'data', 'benchtrack.db');
  await mkdir(join(database, '..'), { recursive: true });
  document.security = { secret_key: randomBytes(32).toString('hex'), ...document.security };
  document.server = { ...document.server, bind_address: `0.0.0.0:${options.apiPort}` };
  // A public console URL (behind a proxy) set with `server config update` stays; a local one follows the port.
  const url = document.console?.url;
  if (typeof url !== 'string' || /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(url)) {
    document.console = { ...document.console, url: `http://localhost:${options.consolePort}` };
  }
  document.database = { ...document.database, file: database };
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
  return { path, database };
}

/** Answers any HTTP request on this port (the API's version route, the console's page)? */
function answers(port: number, path: string): Promise<boolean> {
  return new Promise((done) => {
    const request = http.get({ host: '127.0.0.1', port, path, timeout: 1000 }, (response) => {
      response.resume();
      done((response.statusCode ?? 500) < 500);
    });
    request.on('error', () => done(false));
    request.on('timeout', () => request.destroy());
  });
}

async function start(
  dir: string,
  service: Service,
  port: number,
  env: Record<string, string>,
): Promise<ServiceState> {
  const program = serviceProgram(service);
  if (!program)
    throw new UsageError(`the ${service} is not installed here (build it with \`npm run build\`)`);
  const log = paths(dir, service).log;
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, program.args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    cwd: program.cwd ?? dir,
    env: { ...process.env, UV_THREADPOOL_SIZE: '16', ...env },
  });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start the ${service}`);
  const state = {
    pid: child.pid,
    port,
    url: `http://localhost:${port}`,
    log,
    started: new Date().toISOString(),
    command: program.args,
  };
  await writeState(dir, service, state);
  return state;
}

/** Polls until the service answers; fails with the end of its log when it exits or takes too long. */
async function waitFor(state: ServiceState, service: Service, path: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await answers(state.port, path)) return;
    if (!isRunning(state)) break;
    await sleep(100);
  }
  const tail = (await readFile(state.log, 'utf8').catch(() => ''))
    .trimEnd()
    .split('\n')
    .slice(-15)
    .join('\n');
  const why = isRunning(state) ? `does not answer on port ${state.port} after ${seconds} s` : 'stopped';
  await stopServices(dirname(state.log), [service]);
  throw Object.assign(new Error(`the ${service} ${why}; the end of its log (${state.log}):\n${tail}`), {
    code: 'UP',
  });
}

/**
 * `benchtrack up`: (re)starts the API and the console as background processes with pid and log files in the
 * state directory, waits until they answer, and returns the lines to print (URLs, data, logs).
 */
export async function startServices(dir: string, options: UpOptions): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const services = options.services.filter((s) => s === 'api' || serviceProgram(s) !== undefined);
  const skipped = options.services.filter((s) => !services.includes(s));
  if (options.services.length === 1 && skipped.length === 1) {
    throw new UsageError('the console is not installed here (build it with `npm run build`)');
  }
  await stopServices(dir, services);
  const config = await apiConfig(dir, options);
  const lines: string[] = [];
  if (services.includes('api')) {
    const env = { BENCHTRACK_CONFIG_PATH: config.path, ...environment(options.apiEnv, '--api-env') };
    const state = await start(dir, 'api', options.apiPort, env);
    await waitFor(state, 'api', '/v0/server/version', options.waitSeconds);
    lines.push(`API      ${state.url}  (pid ${state.pid}, log ${state.log})`, `Data     ${config.database}`);
  }
  if (services.includes('console')) {
    const api = (await readState(dir, 'api'))?.port ?? options.apiPort;
    const env = {
      BENCHTRACK_CONFIG_PATH: config.path,
      BENCHTRACK_CONSOLE_PORT: String(options.consolePort),
      BENCHTRACK_API_URL: `http://localhost:${api}`,
      ...(options.consoleVolume ? { BENCHTRACK_CONSOLE_ROOT: resolve(options.consoleVolume) } : {}),
      ...environment(options.consoleEnv, '--console-env'),
    };
    const state = await start(dir, 'console', options.consolePort, env);
    await waitFor(state, 'console', '/', options.waitSeconds);
    lines.push(`Console  ${state.url}  (pid ${state.pid}, log ${state.log})`);
  }
  if (skipped.length > 0) lines.push('Console  not installed here: the API runs alone');
  lines.push('', 'Follow the logs with `benchtrack logs`; stop with `benchtrack down`.');
  return lines;
}
