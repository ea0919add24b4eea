import { execFile, execFileSync, type ExecFileOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** The role and password every throwaway cluster has (scram over TCP, trust on its own socket). */
export const PG_USER = 'benchtrack';
export const PG_PASSWORD = 'benchtrack-pg-secret-0001';

export interface LocalPostgres {
  /** postgres://benchtrack:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** The cluster's data directory. */
  readonly dataDir: string;
  /** A new empty database; answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL through psql against a database (default `postgres`); answers psql's unaligned output. */
  sql(query: string, database?: string): Promise<string>;
  /** Stops the cluster at once (`immediate`), as a crash would. */
  kill(): Promise<void>;
  /** Stops the cluster and removes its directory (a kept cluster's stays: startKeptPostgres). */
  stop(): Promise<void>;
}

/** Debian's PostgreSQL binaries (`postgresql` package): the newest /usr/lib/postgresql/<major>/bin, or PG_BIN. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error(
      'PostgreSQL is not installed: apt-get install postgresql (or set PG_BIN to its bin directory)',
    );
  return join(root, majors[0]!, 'bin');
}

/** PostgreSQL refuses to run as root: as root, the cluster runs as Debian's `postgres` user (or `nobody`). */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const line = execFileSyncText('id', ['-u', name]);
    if (line) return { uid: Number(line), gid: Number(execFileSyncText('id', ['-g', name])) };
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to own the test cluster');
}

function execFileSyncText(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

interface Cluster {
  readonly dir: string;
  readonly dataDir: string;
  readonly port: number;
  readonly owner: { uid: number; gid: number } | undefined;
}

function ownedDir(owner: Cluster['owner'], prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

async function exec(cluster: Pick<Cluster, 'owner' | 'dir'>, tool: string, args: string[]): Promise<string> {
  const options: ExecFileOptions = {
    cwd: cluster.dir,
    env: { PATH: process.env.PATH, PGPASSWORD: PG_PASSWORD, LC_ALL: 'C' },
    ...(cluster.owner ?? {}),
  };
  try {
    const { stdout } = await run(join(postgresBin(), tool), args, { ...options, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const failure = error as Error & { stderr?: string };
    throw new Error(`${tool} ${args.join(' ')} failed: ${failure.stderr ?? failure.message}`, {
      cause: error,
    });
  }
}

/** Settings for a disposable test cluster: no durability work, small memory. */
const SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200'];

async function startCluster(cluster: Cluster): Promise<void> {
  const options = [
    `-p ${cluster.port}`,
    `-k ${cluster.dir}`,
    '-c listen_addresses=127.0.0.1',
    ...SETTINGS.map((setting) => `-c ${setting}`),
  ].join(' ');
  await exec(cluster, 'pg_ctl', [
    '-D',
    cluster.dataDir,
    '-l',
    join(cluster.dir, 'log'),
    '-o',
    options,
    '-w',
    'start',
  ]);
}

function handle(cluster: Cluster, keep = false): LocalPostgres {
  const url = (database: string) =>
    `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${cluster.port}/${encodeURIComponent(database)}`;
  let stopped = false;
  const stopWith = async (mode: string) => {
    if (stopped) return;
    stopped = true;
    await exec(cluster, 'pg_ctl', ['-D', cluster.dataDir, '-m', mode, '-w', 'stop']).catch(() => undefined);
  };
  const sql = (query: string, database = 'postgres') =>
    exec(cluster, 'psql', [
      '-h',
      cluster.dir,
      '-p',
      String(cluster.port),
      '-U',
      PG_USER,
      '-d',
      database,
      '-XAtc',
      query,
    ]);
  return {
    url: url('postgres'),
    port: cluster.port,
    dataDir: cluster.dataDir,
    sql,
    async createDatabase(name) {
      await sql(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      return url(name);
    },
    kill: () => stopWith('immediate'),
    async stop() {
      await stopWith('fast');
      if (!keep) rmSync(cluster.dir, { recursive: true, force: true });
    },
  };
}

/** initdb's arguments (the password file's path comes after them). */
const INITDB = [
  '-U',
  PG_USER,
  '--auth-local=trust',
  '--auth-host=scram-sha-256',
  '-E',
  'UTF8',
  '--locale=C',
  '--no-instructions',
];

/**
 * A data directory made by initdb, once per PostgreSQL installation, owner and arguments, that each new cluster
 * copies: initdb took about 1.1 s of CPU a cluster, a copy 0.2 s (a full run starts six clusters). It is kept in the
 * system's temporary directory, as a cache between runs, and never started; the list of its files and their sizes,
 * recorded beside it, is checked before each use, so one that a cleaner of old temporary files emptied in part is
 * made again.
 */
async function initializedDataDir(owner: Cluster['owner']): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([postgresBin(), owner, INITDB, PG_PASSWORD]))
    .digest('hex')
    .slice(0, 16);
  const template = join(tmpdir(), `benchtrack-pg-initdb-${key}`);
  const recorded = `${template}.contents`;
  if (existsSync(recorded) && readFileSync(recorded, 'utf8') === contentsOf(template)) return template;
  const dir = ownedDir(owner, 'benchtrack-pg-initdb-');
  try {
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${PG_PASSWORD}\n`);
    if (owner) chownSync(pwfile, owner.uid, owner.gid);
    await exec({ dir, owner }, 'initdb', ['-D', join(dir, 'data'), ...INITDB, `--pwfile=${pwfile}`]);
    rmSync(recorded, { force: true });
    rmSync(template, { recursive: true, force: true });
    renameSync(join(dir, 'data'), template);
    writeFileSync(join(dir, 'contents'), contentsOf(template));
    renameSync(join(dir, 'contents'), recorded);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return template;
}

/** Every file under `dir` with its size, hashed. */
function contentsOf(dir: string): string {
  const hash = createHash('sha256');
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(`${relative(dir, path)} ${statSync(path).size}\n`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return hash.digest('hex');
}

/**
 * A throwaway PostgreSQL cluster: a copy of an initdb data directory in a temp directory (owned by an unprivileged
 * user), listening on 127.0.0.1 and a free port, a `benchtrack` superuser with a password. Takes about 1 s. Call
 * `stop()` after.
 */
export async function startPostgres(): Promise<LocalPostgres> {
  const owner = clusterOwner();
  const template = await initializedDataDir(owner);
  try {
    return await startCopy(template, owner);
  } catch {
    // a cached directory damaged in a way its list of files does not show: made again, once
    rmSync(`${template}.contents`, { force: true });
    return startCopy(await initializedDataDir(owner), owner);
  }
}

async function startCopy(template: string, owner: Cluster['owner']): Promise<LocalPostgres> {
  const dir = ownedDir(owner, 'benchtrack-pg-');
  const cluster: Cluster = { dir, dataDir: join(dir, 'data'), port: await freePort(), owner };
  try {
    // -a keeps the owner and the data directory's mode (0700), which the server checks
    await run('cp', ['-a', template, cluster.dataDir], { ...(owner ?? {}) });
    return handle(await startOnFreePort(cluster));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A cluster whose directory outlives it, for measurements repeated on one large database: started from `dir`'s
 * data directory when it has one (on a new free port), otherwise from a new copy of the initdb directory there.
 * `stop()` stops the server and keeps the directory; removing it is the caller's.
 */
export async function startKeptPostgres(dir: string): Promise<LocalPostgres> {
  const owner = clusterOwner();
  const dataDir = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  if (!existsSync(dataDir))
    await run('cp', ['-a', await initializedDataDir(owner), dataDir], { ...(owner ?? {}) });
  return handle(await startOnFreePort({ dir, dataDir, port: await freePort(), owner }), true);
}

/**
 * Starts the cluster; when another process took its port between `freePort` and the bind (the log says so), on a
 * new free port, up to five times. Any other failure names the server's log.
 */
async function startOnFreePort(cluster: Cluster): Promise<Cluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      await startCluster(cluster);
      return cluster;
    } catch (error) {
      const log = existsSync(join(cluster.dir, 'log')) ? readFileSync(join(cluster.dir, 'log'), 'utf8') : '';
      if (attempt >= 5 || !/could not bind|Address already in use/.test(log))
        throw new Error(`${(error as Error).message}\nserver log:\n${log.slice(-2000)}`, { cause: error });
      cluster = { ...cluster, port: await freePort() };
    }
  }
}

/**
 * A streaming read replica of `primary` in a second cluster on another port: pg_basebackup of the running primary
 * (`-R` writes the standby settings), then started as a hot standby.
 */
export async function startReplica(primary: LocalPostgres): Promise<LocalPostgres> {
  const owner = clusterOwner();
  const dir = ownedDir(owner, 'benchtrack-pg-replica-');
  const cluster: Cluster = { dir, dataDir: join(dir, 'data'), port: await freePort(), owner };
  mkdirSync(cluster.dataDir, { mode: 0o700 });
  if (owner) chownSync(cluster.dataDir, owner.uid, owner.gid);
  await exec(cluster, 'pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    PG_USER,
    '-D',
    cluster.dataDir,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
  ]);
  return handle(await startOnFreePort(cluster));
}
