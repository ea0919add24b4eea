import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/index.js';
import { duckdbStorage } from '../../plugins/storage/duckdb/index.js';
import { REPO_ROOT, runServerProcess, startServerProcess } from '../helpers/process.js';
import { onPostgres } from '../helpers/engine.js';

// These spawn benchtrack-api on embedded database files of their own and check the process (configuration errors,
// logs, signals, plugins), not the engine; they would run the same twice. benchtrack-api processes on PostgreSQL:
// test/scale/many-processes.test.ts.
describe.skipIf(onPostgres)('benchtrack-api process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'benchtrack-startup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses an invalid configuration before binding, one line per problem', async () => {
    const document = {
      server: { bind_address: '127.0.0.1:0', tls: { type: 'as_file' } },
      logging: { log: { file: {} } },
      databse: { file: '/tmp/x.db' },
    };
    const result = await runServerProcess({ BENCHTRACK_CONFIG: JSON.stringify(document) });
    expect(result.code).toBe(1);
    const source = 'invalid configuration (environment variable BENCHTRACK_CONFIG)';
    expect(result.stderr.trim().split('\n').sort()).toEqual(
      [
        `benchtrack-api: ${source}: databse: is not a known key; check its spelling against the configuration reference`,
        `benchtrack-api: ${source}: logging.log.file.if_exists: is required when the log mode is file (append, truncate or fail)`,
        `benchtrack-api: ${source}: logging.log.file.path: is required when the log mode is file`,
        `benchtrack-api: ${source}: server.tls.cert_file: is required when tls.type is as_file`,
        `benchtrack-api: ${source}: server.tls.key_file: is required when tls.type is as_file`,
      ].sort(),
    );
    expect(result.stderr).not.toContain('Server listening');
  });

  it('names the configuration file that is wrong', async () => {
    const path = join(dir, 'wrong.json');
    writeFileSync(path, JSON.stringify({ server: { request_body_max_bytes: -1 } }));
    const result = await runServerProcess({ BENCHTRACK_CONFIG_PATH: path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `invalid configuration (file ${path} (BENCHTRACK_CONFIG_PATH)): server.request_body_max_bytes: must be at least 1`,
    );
  });

  it('exits at start when the log file exists and if_exists is fail', async () => {
    const log = join(dir, 'exists.log');
    writeFileSync(log, 'old\n');
    const result = await runServerProcess({
      BENCHTRACK_CONFIG: JSON.stringify({
        server: { bind_address: '127.0.0.1:0' },
        database: { file: join(dir, 'fail.db') },
        logging: { log: { file: { path: log, if_exists: 'fail' } } },
      }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('logging.log.if_exists: is fail and the log file');
    expect(readFileSync(log, 'utf8')).toBe('old\n');
  });

  it('serves, logs Bunyan JSON without secrets, and shuts down cleanly on SIGTERM', async () => {
    const secrets = {
      key: 'top-secret-signing-key-0001',
      smtp: 'smtp-password-0002',
      s3: 's3-secret-access-key-0003',
    };
    const log = join(dir, 'api.log');
    const database = join(dir, 'data', 'api.db');
    const configPath = join(dir, 'benchtrack.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        security: { secret_key: secrets.key },
        server: { bind_address: '127.0.0.1:0' },
        logging: {
          name: 'Startup Test',
          log: { mode: 'file', level: 'debug', path: log, if_exists: 'truncate' },
        },
        database: {
          file: database,
          data_store: {
            service: 'cloud_s3',
            access_key_id: 'id',
            secret_access_key: secrets.s3,
            access_point: 'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups',
          },
        },
        smtp: {
          hostname: 'mail',
          username: 'u',
          secret: secrets.smtp,
          from_name: 'B',
          from_email: 'b@example.com',
        },
      }),
    );
    const server = await startServerProcess({ BENCHTRACK_CONFIG_PATH: configPath }, { logFile: log });
    const response = await fetch(`${server.url}/v0/server/version`, {
      headers: { authorization: `Bearer ${secrets.key}` },
    });
    expect(response.status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0);

    const text = readFileSync(log, 'utf8');
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
    expect(text).toContain('************');
    const entries = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        v: 0,
        name: 'Startup Test',
        hostname: hostname(),
        pid: expect.any(Number),
      });
      expect([10, 20, 30, 40, 50, 60]).toContain(entry.level);
      expect(typeof entry.msg).toBe('string');
      expect(Number.isNaN(Date.parse(entry.time as string))).toBe(false);
    }
    const messages = entries.map((entry) => entry.msg);
    expect(messages).toContain('configuration loaded');
    expect(messages).toContain('migration applied');
    expect(messages.at(-1)).toBe('stopped');
    expect(entries.find((e) => e.msg === 'request completed')).toMatchObject({
      url: '/v0/server/version',
      status: 200,
    });

    // the database was closed: this process can open it at once and sees a current schema
    expect(existsSync(database)).toBe(true);
    const storage = await duckdbStorage.open(
      { file: database },
      { logger: createLogger({ name: 't', log: { mode: 'stderr_terminal', level: 'error' } }) },
    );
    expect(storage.appliedMigrations).toEqual([]);
    await storage.close();
  });

  it('loads the plugins its configuration lists, relative to the configuration file, and ingests with them', async () => {
    const home = join(dir, 'with-plugin');
    mkdirSync(join(home, 'plugins'), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'test/fixtures/plugins/custom-adapter.js'), join(home, 'plugins/csv.js'));
    const configPath = join(home, 'benchtrack.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        server: { bind_address: '127.0.0.1:0' },
        database: { file: join(home, 'api.db') },
        plugins: ['./plugins/csv.js'],
      }),
    );
    const server = await startServerProcess({ BENCHTRACK_CONFIG_PATH: configPath });
    try {
      expect(server.stderr()).toContain('plugin loaded');
      const now = new Date().toISOString();
      const response = await fetch(`${server.url}/v0/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          project: 'plugged',
          start_time: now,
          end_time: now,
          results: ['sort/1000,latency,1532,1490,1601'],
          settings: { adapter: 'csv_metrics' },
        }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const report = (await response.json()) as {
        adapter: string;
        results: {
          benchmark: { name: string };
          measures: { metric: { value: number; upper_value: number } }[];
        }[][];
      };
      expect(report.adapter).toBe('csv_metrics');
      expect(report.results[0]?.[0]?.benchmark.name).toBe('sort/1000');
      expect(report.results[0]?.[0]?.measures[0]?.metric).toMatchObject({ value: 1532, upper_value: 1601 });
    } finally {
      expect(await server.stop('SIGINT')).toBe(0);
    }
  });

  it('names a plugin module that cannot be loaded and does not start', async () => {
    const result = await runServerProcess({
      BENCHTRACK_CONFIG: JSON.stringify({
        server: { bind_address: '127.0.0.1:0' },
        database: { file: join(dir, 'no-plugin.db') },
        plugins: [join(dir, 'missing-plugin.js')],
      }),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('missing-plugin.js');
    expect(result.stderr).not.toContain('Server listening');
  });
});
