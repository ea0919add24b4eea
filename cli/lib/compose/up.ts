import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import { stopServices } from './down.js';
import { serviceProgram, type ServiceProgram } from './programs.js';
import { isRunning, paths, readState, writeState, type Service, type ServiceState } from './state.js';

export interface UpOptions {
  readonly services: readonly Service[];
  readonly apiPort: number;
  /** IP address the API binds; by default the one its configuration binds, else 0.0.0.0. */
  readonly apiHost?: string | undefined;
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

/** The API's configuration document for this run, with where it is saved. */
interface ApiConfig {
  readonly path: string;
  readonly database: string;
  /** The IP address the API binds. */
  readonly host: string;
  readonly document: Record<string, Record<string, unknown> | undefined>;
}

/**
 * The API's configuration document in the state directory, passed as BENCHTRACK_CONFIG_PATH, so a
 * `benchtrack server config update` is saved there and survives the next `up`. This run's port, console URL
 * and data location are set in it; everything else the user changed stays, and the secret key is made once
 * so sessions and API tokens outlive restarts. The IP address the document binds stays (127.0.0.1 keeps a
 * local API off the network) unless --api-host says otherwise. A console URL that is not local is the user's
 * and stays. Nothing is written yet; the data directory is made, so an unusable --api-volume fails here.
 */
async function apiConfig(dir: string, options: UpOptions): Promise<ApiConfig> {
  const path = join(dir, 'api-config.json');
  const document = JSON.parse(await readFile(path, 'utf8').catch(() => '{}')) as ApiConfig['document'];
  const database =
    options.apiVolume !== undefined
      ? join(resolve(options.apiVolume), 'benchtrack.db')
      : typeof document.database?.file === 'string'
        ? document.database.file
        : join(dir, 'data', 'benchtrack.db');
  await mkdir(join(database, '..'), { recursive: true });
  document.security = { secret_key: randomBytes(32).toString('hex'), ...document.security };
  const host = options.apiHost ?? configuredHost(document.server?.bind_address) ?? '0.0.0.0';
  const ip = isIP(host) === 6 ? `[${host}]` : host;
  document.server = { ...document.server, bind_address: `${ip}:${options.apiPort}` };
  // A public console URL (behind a proxy) set with `server config update` stays; a local one follows the port.
  const url = document.console?.url;
  if (typeof url !== 'string' || /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(url)) {
    document.console = { ...document.console, url: `http://localhost:${options.consolePort}` };
  }
  document.database = { ...document.database, file: database };
  return { path, database, host, document };
}

/** The IP address of a `<ip>:<port>` bind address, if it is one. */
function configuredHost(bindAddress: unknown): string | undefined {
  if (typeof bindAddress !== 'string') return undefined;
  const host = bindAddress.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? undefined : host;
}

/** Where to reach a service bound to `host`: the loopback address for a wildcard, else the address itself. */
function reachableAt(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** Answers any HTTP request at this URL (the API's version route, the console's page)? */
function answers(url: URL): Promise<boolean> {
  return new Promise((done) => {
    const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[(.*)\]$/, '$1');
    const request = http.get({ host, port: url.port, path: url.pathname, timeout: 1000 }, (response) => {
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
  program: ServiceProgram,
  port: number,
  env: Record<string, string>,
  host = 'localhost',
): Promise<ServiceState> {
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
    url: `http://${host}:${port}`,
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
    if (await answers(new URL(path, state.url))) return;
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

/** What `up` will start, checked before anything running is stopped. */
interface Plan {
  readonly programs: ReadonlyMap<Service, ServiceProgram>;
  readonly skipped: readonly Service[];
  readonly config: ApiConfig;
  readonly apiEnv: Record<string, string>;
  readonly consoleEnv: Record<string, string>;
}

/**
 * Everything that can fail on the user's input (flags, volumes, an uninstalled service), so a mistake leaves
 * the running services alone.
 */
async function plan(dir: string, options: UpOptions): Promise<Plan> {
  const programs = new Map<Service, ServiceProgram>();
  for (const service of options.services) {
    const program = serviceProgram(service);
    if (program) programs.set(service, program);
  }
  const skipped = options.services.filter((s) => !programs.has(s));
  // The console is optional: an API-only install starts the API alone when both are asked for.
  if (skipped.includes('api') || skipped.length === options.services.length) {
    throw new UsageError(`the ${skipped[0]} is not installed here (build it with \`npm run build\`)`);
  }
  if (options.apiHost !== undefined && isIP(options.apiHost) === 0)
    throw new UsageError(
      `--api-host must be an IP address such as 127.0.0.1 or 0.0.0.0, got "${options.apiHost}"`,
    );
  const apiEnv = environment(options.apiEnv, '--api-env');
  const consoleEnv = environment(options.consoleEnv, '--console-env');
  return { programs, skipped, config: await apiConfig(dir, options), apiEnv, consoleEnv };
}

/**
 * `benchtrack up`: (re)starts the API and the console as background processes with pid and log files in the
 * state directory, waits until they answer, and returns the lines to print (URLs, data, logs).
 */
export async function startServices(dir: string, options: UpOptions): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { programs, skipped, config, apiEnv, consoleEnv } = await plan(dir, options);
  await stopServices(dir, [...programs.keys()]);
  await writeFile(config.path, `${JSON.stringify(config.document, null, 2)}\n`, { mode: 0o600 });
  const lines: string[] = [];
  const api = programs.get('api');
  if (api) {
    const env = { BENCHTRACK_CONFIG_PATH: config.path, ...apiEnv };
    const state = await start(dir, 'api', api, options.apiPort, env, reachableAt(config.host));
    await waitFor(state, 'api', '/v0/server/version', options.waitSeconds);
    lines.push(`API      ${state.url}  (pid ${state.pid}, log ${state.log})`, `Data     ${config.database}`);
  }
  const consoleProgram = programs.get('console');
  if (consoleProgram) {
    const apiUrl = (await readState(dir, 'api'))?.url ?? `http://localhost:${options.apiPort}`;
    const env = {
      BENCHTRACK_CONFIG_PATH: config.path,
      BENCHTRACK_CONSOLE_PORT: String(options.consolePort),
      BENCHTRACK_API_URL: apiUrl,
      ...(options.consoleVolume ? { BENCHTRACK_CONSOLE_ROOT: resolve(options.consoleVolume) } : {}),
      ...consoleEnv,
    };
    const state = await start(dir, 'console', consoleProgram, options.consolePort, env);
    await waitFor(state, 'console', '/', options.waitSeconds);
    lines.push(`Console  ${state.url}  (pid ${state.pid}, log ${state.log})`);
  }
  if (skipped.length > 0) lines.push('Console  not installed here: the API runs alone');
  lines.push('', 'Follow the logs with `benchtrack logs`; stop with `benchtrack down`.');
  return lines;
}
