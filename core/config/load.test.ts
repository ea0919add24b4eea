import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { CONFIG_ENV, CONFIG_PATH_ENV, loadConfig, parseConfigDocument } from './load.js';
import { REDACTED, redactConfig, secretValues } from './redact.js';

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-config-'));
const missing = join(dir, 'missing.json');
function file(name: string, document: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
  return path;
}
function issues(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split('\n');
  }
  throw new Error('expected a ConfigError');
}
const source = { kind: 'env', description: 'test' } as const;

describe('configuration sources and precedence', () => {
  const envDoc = JSON.stringify({ console: { url: 'http://env.example:3000' } });
  const pathDoc = file('path.json', { console: { url: 'http://path.example:3000' } });
  const defaultDoc = file('default.json', { console: { url: 'http://default.example:3000' } });

  it('prefers BENCHTRACK_CONFIG over every file', () => {
    const loaded = loadConfig({
      env: { [CONFIG_ENV]: envDoc, [CONFIG_PATH_ENV]: pathDoc },
      defaultPath: defaultDoc,
    });
    expect(loaded.config.console.url).toBe('http://env.example:3000');
    expect(loaded.source.kind).toBe('env');
  });

  it('uses BENCHTRACK_CONFIG_PATH next, then the default path, then the defaults', () => {
    expect(
      loadConfig({ env: { [CONFIG_PATH_ENV]: pathDoc }, defaultPath: defaultDoc }).config.console.url,
    ).toBe('http://path.example:3000');
    expect(loadConfig({ env: {}, defaultPath: defaultDoc }).config.console.url).toBe(
      'http://default.example:3000',
    );
    const fallback = loadConfig({ env: {}, defaultPath: missing });
    expect(fallback.source.kind).toBe('default');
    expect(fallback.config.console.url).toBe('http://localhost:3000');
  });

  it('warns and looks further when BENCHTRACK_CONFIG_PATH names a missing file', () => {
    const loaded = loadConfig({ env: { [CONFIG_PATH_ENV]: missing }, defaultPath: defaultDoc });
    expect(loaded.config.console.url).toBe('http://default.example:3000');
    expect(loaded.warnings.join('\n')).toContain(`${CONFIG_PATH_ENV} names ${missing}`);
  });

  it('names the source of a document that is not JSON', () => {
    const bad = file('bad.json', '{"console": ');
    const lines = issues(() => loadConfig({ env: { [CONFIG_PATH_ENV]: bad }, defaultPath: missing }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`file ${bad} (${CONFIG_PATH_ENV})`);
    expect(lines[0]).toContain('is not valid JSON');
  });
});

describe('defaults', () => {
  it('fills every default of the spec', () => {
    const { config, warnings } = parseConfigDocument({}, source);
    expect(config.console.url).toBe('http://localhost:3000');
    expect(config.server).toEqual({ bind_address: '0.0.0.0:61016', request_body_max_bytes: 1_048_576 });
    expect(config.logging).toEqual({
      name: 'Benchtrack API',
      log: { mode: 'stderr_terminal', level: 'info' },
    });
    expect(config.database.file).toBe('/var/lib/benchtrack/data/benchtrack.db');
    expect(config.security.issuer).toBe('benchtrack');
    expect(config.smtp).toBeUndefined();
    expect(config.plugins).toEqual([]);
    expect(config.runners).toEqual({ heartbeat_timeout: '60s' });
    expect(config.notifications?.allow_private_targets ?? false).toBe(false);
    expect(parseConfigDocument({ notifications: {} }, source).config.notifications).toEqual({
      allow_private_targets: false,
    });
    expect(config.security.secret_key).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(warnings.join('\n')).toContain('will not survive a restart');
  });

  it('keeps a configured secret key without a warning', () => {
    const { config, warnings } = parseConfigDocument(
      { security: { secret_key: 'a-very-long-secret-key' } },
      source,
    );
    expect(config.security.secret_key).toBe('a-very-long-secret-key');
    expect(warnings).toEqual([]);
  });

  it('fills replica, smtp and stats defaults', () => {
    const { config } = parseConfigDocument(
      {
        smtp: {
          hostname: 'mail',
          username: 'u',
          secret: 'smtp-secret',
          from_name: 'B',
          from_email: 'b@example.com',
        },
        plus: { disaster_recovery: { replicas: [{ scheme: 'file', path: '/backup' }] }, stats: {} },
      },
      source,
    );
    expect(config.smtp).toMatchObject({ port: 587, starttls: true, insecure_host: false });
    expect(config.plus?.disaster_recovery).toEqual({
      busy_timeout: 5000,
      replicas: [
        {
          scheme: 'file',
          path: '/backup',
          retention: '24h',
          retention_check_interval: '1h',
          sync_interval: '1s',
        },
      ],
    });
    expect(config.plus?.stats).toEqual({ offset: 11_242, enabled: true });
  });
});

describe('logging forms', () => {
  it.each([
    [{ log: { stderr_terminal: { level: 'debug' } } }, { mode: 'stderr_terminal', level: 'debug' }],
    [{ log: { 'stderr-terminal': {} } }, { mode: 'stderr_terminal', level: 'info' }],
    [{ log: { mode: 'stderr-terminal', level: 'critical' } }, { mode: 'stderr_terminal', level: 'critical' }],
    [
      { log: { file: { level: 'warn', path: '/tmp/x.log', if_exists: 'append' } } },
      { mode: 'file', level: 'warn', path: '/tmp/x.log', if_exists: 'append' },
    ],
    [
      { log: { mode: 'file', path: '/tmp/x.log', if_exists: 'fail' } },
      { mode: 'file', level: 'info', path: '/tmp/x.log', if_exists: 'fail' },
    ],
  ])('normalizes %j', (logging, expected) => {
    expect(parseConfigDocument({ logging }, source).config.logging.log).toEqual(expected);
  });

  it('reports missing file settings at the path the author wrote', () => {
    expect(
      issues(() => parseConfigDocument({ logging: { log: { file: { level: 'info' } } } }, source)),
    ).toEqual([
      'invalid configuration (test): logging.log.file.path: is required when the log mode is file',
      'invalid configuration (test): logging.log.file.if_exists: is required when the log mode is file (append, truncate or fail)',
    ]);
    expect(
      issues(() => parseConfigDocument({ logging: { log: { mode: 'file', level: 'loud' } } }, source)),
    ).toEqual([
      'invalid configuration (test): logging.log.level: must be one of trace, debug, info, warn, error, critical, got "loud"',
      'invalid configuration (test): logging.log.path: is required when mode is file',
      'invalid configuration (test): logging.log.if_exists: is required when mode is file (append, truncate or fail)',
    ]);
  });
});

describe('rules', () => {
  it.each([
    [{ server: { bind_address: '0.0.0.0' } }, 'server.bind_address: must be one IP address and port'],
    [{ server: { bind_address: 'localhost:80' } }, 'server.bind_address: must be one IP address and port'],
    [{ server: { bind_address: '1.2.3.4:70000' } }, 'server.bind_address: must be one IP address and port'],
    [{ server: { request_body_max_bytes: 0 } }, 'server.request_body_max_bytes: must be at least 1'],
    [
      { server: { tls: { type: 'as_file', cert_file: '/c.pem' } } },
      'server.tls.key_file: is required when tls.type is as_file',
    ],
    [
      { server: { tls: { type: 'as_bytes', certs: [1, 2] } } },
      'server.tls.key: is required when tls.type is as_bytes',
    ],
    [
      { server: { tls: { type: 'as_bytes', certs: [300], key: [1] } } },
      'server.tls.certs[0]: must be at most 255',
    ],
    [{ server: { tls: { cert_file: '/c.pem' } } }, 'server.tls.type: is required: one of as_file, as_bytes'],
    [{ console: { url: 'ftp://x' } }, 'console.url: must be an http or https URL'],
    [
      { database: { data_store: { service: 'cloud_s3', access_key_id: 'k' } } },
      'database.data_store.secret_access_key: is required when data_store.service is cloud_s3',
    ],
    [{ database: { data_store: { service: 'gcs' } } }, 'database.data_store.service: must be cloud_s3'],
    [
      { database: { memory_limit: '2 gigs' } },
      'database.memory_limit: must be a number and a unit (MB, GB, TB, MiB, GiB or TiB), such as 1GiB, got "2 gigs"',
    ],
    [{ database: { memory_limit: '64MiB' } }, 'database.memory_limit: must be at least 128MiB, got "64MiB"'],
    [{ database: { memory_limit: 2048 } }, 'database.memory_limit: must be a string such as 1GiB'],
    [
      { smtp: { hostname: 'h', username: 'u', secret: 'smtp-secret', from_name: 'n', from_email: 'nope' } },
      'smtp.from_email: must be an e-mail address',
    ],
    [
      { plus: { disaster_recovery: { replicas: [] } } },
      'plus.disaster_recovery.replicas: must list at least one replica',
    ],
    [
      { plus: { disaster_recovery: { replicas: [{ scheme: 'sftp', host: 'h' }] } } },
      'plus.disaster_recovery.replicas[0].user: is required when scheme is sftp',
    ],
    [
      { plus: { disaster_recovery: { replicas: [{ scheme: 'abs', bucket: 'b' }] } } },
      'plus.disaster_recovery.replicas[0].account_name: is required when scheme is abs',
    ],
    [
      { plus: { disaster_recovery: { replicas: [{ scheme: 'gcs', bucket: 'b', retention: 'a day' }] } } },
      'plus.disaster_recovery.replicas[0].retention: must be a duration',
    ],
    [
      { plus: { disaster_recovery: { replicas: [{ scheme: 'ftp' }] } } },
      'plus.disaster_recovery.replicas[0].scheme: must be one of file, sftp, s3, abs, gcs, got "ftp"',
    ],
    [{ plus: { stats: { offset: 90_000 } } }, 'plus.stats.offset: must be at most 86399'],
    [{ plus: { codehost: { client_id: 'id' } } }, 'plus.codehost.client_secret: is required'],
    [{ security: { secret_key: 'short' } }, 'security.secret_key: must be at least 16 characters long'],
    [
      { runners: { heartbeat_timeout: 'a minute' } },
      'runners.heartbeat_timeout: must be a duration such as 30s',
    ],
    [{ runners: { heartbeat_timeout: '500ms' } }, 'runners.heartbeat_timeout: must be from 1s to 1h'],
    [{ runners: { heartbeat_timeout: '2h' } }, 'runners.heartbeat_timeout: must be from 1s to 1h'],
    [{ runners: { timeout: '5s' } }, 'runners.timeout'],
    [
      { notifications: { allow_private_targets: 'yes' } },
      'notifications.allow_private_targets: must be true or false',
    ],
    [{ notifications: { allow_private: true } }, 'notifications.allow_private: is not a known key'],
  ])('rejects %j', (document, expected) => {
    const lines = issues(() => parseConfigDocument(document, source));
    expect(
      lines.some((line) => line.includes(expected)),
      lines.join('\n'),
    ).toBe(true);
  });

  it('rejects unknown keys at any depth, one line each', () => {
    const lines = issues(() =>
      parseConfigDocument({ consol: {}, server: { port: 1 }, plus: { stats: { enable: false } } }, source),
    );
    expect(lines.sort()).toEqual([
      'invalid configuration (test): consol: is not a known key; check its spelling against the configuration reference',
      'invalid configuration (test): plus.stats.enable: is not a known key; check its spelling against the configuration reference',
      'invalid configuration (test): server.port: is not a known key; check its spelling against the configuration reference',
    ]);
  });

  it('accepts IPv6 bind addresses and every replica scheme', () => {
    const common = { access_key_id: 'a', secret_access_key: 's3-secret-value' };
    const { config } = parseConfigDocument(
      {
        server: { bind_address: '[::1]:8080' },
        plus: {
          disaster_recovery: {
            replicas: [
              { scheme: 'file', path: '/r' },
              { scheme: 'sftp', host: 'h', port: 22, user: 'u', password: 'sftp-password', key_path: '/k' },
              { scheme: 's3', bucket: 'b', endpoint: 'http://127.0.0.1:9000', region: 'x', ...common },
              { scheme: 'abs', account_name: 'n', bucket: 'b', account_key: 'abs-account-key' },
              { scheme: 'gcs', bucket: 'b', snapshot_interval: '6h', validation_interval: '12h' },
            ],
          },
        },
      },
      source,
    );
    expect(config.plus?.disaster_recovery?.replicas.map((r) => r.scheme)).toEqual([
      'file',
      'sftp',
      's3',
      'abs',
      'gcs',
    ]);
  });

  it('normalizes plugin entries', () => {
    const { config } = parseConfigDocument(
      { plugins: ['./a.js', { module: 'pkg', options: { x: 1 } }] },
      source,
    );
    expect(config.plugins).toEqual([
      { module: './a.js', options: undefined },
      { module: 'pkg', options: { x: 1 } },
    ]);
  });
});

describe('secrets', () => {
  const document = {
    security: { secret_key: 'security-secret-value' },
    server: { tls: { type: 'as_bytes', certs: [1], key: [2, 3] } },
    smtp: { hostname: 'h', username: 'u', secret: 'smtp-secret-value', from_name: 'n', from_email: 'a@b.co' },
    database: {
      data_store: {
        service: 'cloud_s3',
        access_key_id: 'id',
        secret_access_key: 's3-secret-value',
        access_point: 'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups/benchtrack',
      },
    },
    plus: {
      codehost: { client_id: 'id', client_secret: 'oauth-secret-value' },
      disaster_recovery: {
        replicas: [
          { scheme: 'sftp', host: 'h', user: 'u', password: 'sftp-secret-value' },
          { scheme: 's3', bucket: 'b', access_key_id: 'a', secret_access_key: 'replica-secret-value' },
          { scheme: 'abs', account_name: 'n', bucket: 'b', account_key: 'abs-secret-value' },
        ],
      },
    },
  } as const;

  it('redacts every secret of the document and nothing else', () => {
    const { config } = parseConfigDocument(document, source);
    const redacted = redactConfig(config);
    const text = JSON.stringify(redacted);
    for (const secret of secretValues(config)) expect(text).not.toContain(secret);
    expect(redacted.security.secret_key).toBe(REDACTED);
    expect(redacted.server.tls).toMatchObject({ key: REDACTED, certs: [1] });
    expect(redacted.smtp?.secret).toBe(REDACTED);
    expect(redacted.smtp?.username).toBe('u');
    expect(redacted.plus?.codehost?.client_id).toBe('id');
    expect(config.security.secret_key).toBe('security-secret-value');
    expect(secretValues(config)).toEqual([
      'security-secret-value',
      'smtp-secret-value',
      's3-secret-value',
      'oauth-secret-value',
      'sftp-secret-value',
      'replica-secret-value',
      'abs-secret-value',
    ]);
  });
});

describe('the plus keys', () => {
  it('accepts plus.stats', () => {
    const { config } = loadConfig({
      env: { [CONFIG_ENV]: '{"plus":{"stats":{"enabled":false}}}' },
      defaultPath: missing,
    });
    expect(config.plus?.stats).toEqual({ offset: 11_242, enabled: false });
  });

  it('accepts plus.disaster_recovery', () => {
    const document = { plus: { disaster_recovery: { replicas: [{ scheme: 'file', path: '/backup' }] } } };
    const { config } = loadConfig({ env: { [CONFIG_ENV]: JSON.stringify(document) }, defaultPath: missing });
    expect(config.plus?.disaster_recovery?.replicas).toHaveLength(1);
  });

  it('accepts an empty plus table', () => {
    const { config } = loadConfig({ env: { [CONFIG_ENV]: '{"plus":{}}' }, defaultPath: missing });
    expect(config.plus).toEqual({});
  });
});

describe('database.data_store.access_point', () => {
  const store = (access_point: string) => ({
    database: {
      data_store: {
        service: 'cloud_s3',
        access_key_id: 'id',
        secret_access_key: 's3-secret-value',
        access_point,
      },
    },
  });
  it.each([
    'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups',
    'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups/benchtrack/nightly',
    'arn:aws-us-gov:s3:us-gov-west-1:123456789012:accesspoint/my-point',
  ])('accepts %s', (accessPoint) => {
    expect(parseConfigDocument(store(accessPoint), source).config.database.data_store?.access_point).toBe(
      accessPoint,
    );
  });
  it.each([
    'backups',
    's3://backups/path',
    'arn:aws:s3:::backups',
    'arn:aws:s3:eu-west-1:1:accesspoint/backups',
    'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups/../etc',
  ])('refuses %s, naming the accepted form', (accessPoint) => {
    expect(issues(() => parseConfigDocument(store(accessPoint), source))).toEqual([
      `invalid configuration (test): database.data_store.access_point: must look like arn:aws:s3:<region>:<12-digit account id>:accesspoint/<access point name>[/<path>], got ${JSON.stringify(accessPoint)}`,
    ]);
  });
});

describe('database.url', () => {
  const url = 'postgres://bench:pa%3As%40word-0001@db.example:5432/benchtrack';
  it('selects a database server, and no embedded file then', () => {
    const { config } = parseConfigDocument({ database: { url } }, source);
    expect(config.database).toEqual({ url });
  });

  it('is absent when only database.file is given', () => {
    const { config } = parseConfigDocument({ database: { file: '/data/b.db' } }, source);
    expect(config.database).toEqual({ file: '/data/b.db' });
  });

  it.each([
    [{ url, file: '/data/b.db' }, 'database.url: cannot be given with database.file'],
    [{ url, memory_limit: '2GiB' }, 'database.memory_limit: applies to the embedded database only'],
    [{ url: 'db.example:5432/benchtrack' }, 'database.url: must be a URL such as postgres://'],
    [
      { url: 'file:///data/b.db' },
      'database.url: must name a database server; the embedded database is database.file',
    ],
    [{ url: 42 }, 'database.url: must be a string'],
  ])('rejects %j', (database, expected) => {
    const lines = issues(() => parseConfigDocument({ database }, source));
    expect(
      lines.some((line) => line.includes(expected)),
      lines.join('\n'),
    ).toBe(true);
  });

  it('shows the URL without its password, and gives the password (encoded and decoded) to the log scrubber', () => {
    const { config } = parseConfigDocument({ database: { url } }, source);
    expect(redactConfig(config).database.url).toBe(`postgres://bench:${REDACTED}@db.example:5432/benchtrack`);
    expect(secretValues(config)).toEqual(expect.arrayContaining(['pa%3As%40word-0001', 'pa:s@word-0001']));
  });
});
