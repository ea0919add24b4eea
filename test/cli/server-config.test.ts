import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3_ACCESS_KEY_ID, S3_SECRET, startLocalS3 } from '../helpers/s3.js';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCli, runCliAsync } from './run-cli.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer();
  token = (await api.signUp('Admin User', 'admin@example.com')).token;
});
afterAll(async () => {
  await api?.close();
});

const cli = (args: readonly string[]) =>
  runCli(args, undefined, { env: { BENCHTRACK_HOST: api.url, BENCHTRACK_API_TOKEN: token } });

describe('benchtrack server config update', () => {
  it('refuses a document without the secret key, and sends it with --confirm', () => {
    const view = cli(['server', 'config', 'view']);
    expect(view.status, view.stderr).toBe(0);
    const document = JSON.parse(view.stdout);
    delete document.security.secret_key;
    const file = join(api.dir, 'update.json');
    writeFileSync(file, JSON.stringify(document));

    const refused = cli(['server', 'config', 'update', '--file', file]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('security.secret_key: is missing');
    expect(refused.stderr).toContain('--confirm security.secret_key');

    const confirmed = cli(['server', 'config', 'update', '--file', file, '--confirm', 'security.secret_key']);
    expect(confirmed.status, confirmed.stderr).toBe(0);
    expect(JSON.parse(confirmed.stdout).security.secret_key).toBe('************');
  });
});

describe('benchtrack server backup', () => {
  it('backs up with --compress, shows a progress line, and prints what it made', () => {
    const result = cli(['server', 'backup', '--compress']);
    expect(result.status, result.stderr).toBe(0);
    const made = JSON.parse(result.stdout);
    expect(made).toMatchObject({ compressed: true, pushed_to: null });
    expect(made.name).toMatch(/^backup-.+-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.db\.gz$/);
    expect(existsSync(made.file)).toBe(true);
    expect(result.stderr).toContain('benchtrack: backing up the database...');
    expect(result.stderr).toMatch(/benchtrack: backing up the database: ended after \d+s/);
  });

  it('refuses --rm without --data-store before calling the server', () => {
    const result = cli(['server', 'backup', '--rm']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      '--remove deletes the local copy after a push, so it needs --data-store cloud_s3',
    );
    expect(result.stderr).not.toContain('backing up');
  });

  it('passes on the refusal of a server without a data store, under either name', () => {
    for (const store of ['cloud_s3', 'aws_s3']) {
      const result = cli(['server', 'backup', '--data-store', store]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('data_store: database.data_store is not configured');
    }
  });

  it('names the store as the configuration does, cloud_s3, in its help', () => {
    const help = cli(['server', 'backup', '--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('--data-store cloud_s3');
    expect(help.stdout).toMatch(/--data-store <store>[^]*\(choices: "cloud_s3", "aws_s3"\)/);
    expect(help.stdout).toContain('aws_s3, the name other clients send, is an alias');
  });
});

describe('benchtrack server backup --data-store cloud_s3', () => {
  it('pushes the backup to the database.data_store the configuration names cloud_s3, and removes the local copy', async () => {
    const s3 = await startLocalS3(['backups']);
    const dir = await startApiServer({
      database: {
        file: join(api.dir, 'pushed.db'),
        data_store: {
          service: 'cloud_s3',
          access_key_id: S3_ACCESS_KEY_ID,
          secret_access_key: S3_SECRET,
          access_point: 'arn:aws:s3:us-east-1:123456789012:accesspoint/backups/cli',
          endpoint: s3.endpoint,
        },
      },
    });
    try {
      const admin = (await dir.signUp('Admin User', 'admin@example.com')).token;
      // the test process serves S3 to the API while the client runs: a synchronous child would starve it
      const result = await runCliAsync(
        ['server', 'backup', '--compress', '--data-store', 'cloud_s3', '--rm'],
        {
          env: { BENCHTRACK_HOST: dir.url, BENCHTRACK_API_TOKEN: admin },
        },
      );
      expect(result.status, result.stderr).toBe(0);
      const made = JSON.parse(result.stdout);
      expect(made).toMatchObject({
        compressed: true,
        file: null,
        pushed_to: `s3://backups/cli/${made.name}`,
      });
      const object = join(s3.directory, 'backups', 'cli', `${made.name}._S3rver_object`);
      expect(readFileSync(object).length).toBe(made.size);
    } finally {
      await dir.close();
      await s3.close();
    }
  });
});
