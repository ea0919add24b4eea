import { Option, type Command } from 'commander';
import { apiCommand, group } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';

/**
 * The stores `--data-store` names: the configuration's `database.data_store.service` (`cloud_s3`), and `aws_s3`, the
 * name the reference's client sends, as an alias of it.
 */
const DATA_STORES = ['cloud_s3', 'aws_s3'];

/** `benchtrack server`: version, OpenAPI document, backup, statistics and the running configuration. */
export function registerServerCommands(program: Command): void {
  const server = group(program, 'server');
  apiCommand(
    server,
    {
      name: 'version',
      description: 'Version of the API server',
      examples: ['benchtrack server version --host https://bench.example.com'],
    },
    () => undefined,
    async (ctx) =>
      ctx.print(await ctx.client.get('/v0/server/version', { schema: ctx.core.serverVersionSchema })),
  );
  apiCommand(
    server,
    {
      name: 'spec',
      description: 'The OpenAPI document of the API',
      examples: ['benchtrack server spec > openapi.json'],
    },
    () => undefined,
    async (ctx) => ctx.print(await ctx.client.get('/v0/server/spec')),
  );
  apiCommand<{ compress?: boolean; dataStore?: string; remove?: boolean; rm?: boolean }>(
    server,
    {
      name: 'backup',
      description: 'Back up the database while the server runs (server administrators)',
      examples: [
        'benchtrack server backup --compress',
        'benchtrack server backup --compress --data-store cloud_s3 --rm --timeout 900',
      ],
      notes:
        'The backup is written beside the database as backup-<database stem>-<UTC time>[.gz]. --data-store cloud_s3 pushes it to database.data_store (its service, cloud_s3; aws_s3, the name other clients send, is an alias) and checks its SHA-256 after the upload; --remove then deletes the local copy. A large database takes a while: raise --timeout.',
    },
    (c) =>
      c
        .option('--compress', 'gzip the backup')
        .addOption(
          new Option(
            '--data-store <store>',
            'push it to database.data_store, the cloud_s3 store of the configuration (alias: aws_s3)',
          ).choices(DATA_STORES),
        )
        .option('--remove', 'delete the local copy once pushed (needs --data-store); alias --rm')
        .addOption(new Option('--rm').hideHelp()),
    async (ctx, _args, o) => {
      const remove = o.remove === true || o.rm === true;
      if (remove && !o.dataStore)
        throw new UsageError(
          '--remove deletes the local copy after a push, so it needs --data-store cloud_s3',
        );
      const body = {
        ...(o.compress ? { compress: true } : {}),
        ...(o.dataStore ? { data_store: 'cloud_s3' } : {}),
        ...(remove ? { remove: true } : {}),
      };
      const stop = progress('backing up the database');
      const answer = await ctx.client
        .post('/v0/server/backup', { body, schema: ctx.core.backupCreatedSchema })
        .finally(() => stop());
      ctx.print(answer);
    },
  );
  apiCommand(
    server,
    {
      name: 'stats',
      description: 'Server statistics (server administrators): computed by the server, never sent anywhere',
      examples: ['benchtrack server stats', "benchtrack server stats | jq '.metrics'"],
      notes:
        'Counts of users, organizations, projects, reports and metrics created today, in the last 7 and 30 UTC days and in total; the most active projects; metrics per day; and the daily snapshots (plus.stats).',
    },
    () => undefined,
    async (ctx) =>
      ctx.print(await ctx.client.get('/v0/server/stats', { schema: ctx.core.serverStatsSchema })),
  );
  const config = group(server, 'config', 'The running configuration (server administrators)');
  apiCommand(
    config,
    {
      name: 'view',
      aliases: ['get'],
      description: 'View the running configuration, secrets redacted',
      examples: ['benchtrack server config view > benchtrack.json'],
    },
    () => undefined,
    async (ctx) => ctx.print(await ctx.client.get('/v0/server/config')),
  );
  apiCommand<{ file?: string; confirm?: string }>(
    config,
    {
      name: 'update',
      aliases: ['edit'],
      description: 'Validate, save and apply a new configuration document',
      examples: [
        'benchtrack server config view > config.json && $EDITOR config.json && benchtrack server config update --file config.json',
        'jq \'.console.url = "https://bench.example.com"\' config.json | benchtrack server config update',
      ],
      notes:
        'The document replaces the whole configuration. Secrets sent back as ************ keep their value. A document without security.secret_key, or one that leaves out a key whose running value would then change (falling back to its default), is refused unless --confirm names the key or its section. Some settings apply at the next start: the answer says which.',
    },
    (c) =>
      c
        .option('--file <path>', 'the document (default: stdin)')
        .option(
          '--confirm <keys>',
          'keys the document may leave out: sections (server, logging, database, ...) or keys in one (security.secret_key, server.tls), comma-separated',
        ),
    async (ctx, _args, o) => {
      const { readFile } = await import('node:fs/promises');
      const { readStdin } = await import('../lib/stdin.js');
      const text = o.file ? await readFile(o.file, 'utf8') : await readStdin();
      if (text === undefined)
        throw new UsageError('give the document with --file <path>, or pipe it to stdin');
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch (error) {
        throw new UsageError(`the configuration is not valid JSON: ${(error as Error).message}`);
      }
      const query = o.confirm ? { confirm: o.confirm } : undefined;
      const response = await ctx.client.put('/v0/server/config', { body: document, query });
      ctx.print(response);
      const pending = response.headers['x-benchtrack-pending-restart'];
      if (pending)
        process.stderr.write(`benchtrack: applies at the next start of the API: ${String(pending)}\n`);
    },
  );
  apiCommand(
    config,
    {
      name: 'console',
      description: 'Where the web console is served (console.url)',
      examples: ['benchtrack server config console'],
    },
    () => undefined,
    async (ctx) => ctx.print(await ctx.client.get('/v0/server/config/console')),
  );
}

/**
 * A progress line on stderr while one long request runs: the elapsed seconds, redrawn each second on a
 * terminal, one line at the start and one at the end otherwise. Returns the function that ends it.
 */
function progress(what: string): () => void {
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)}s`;
  const tty = process.stderr.isTTY === true;
  process.stderr.write(`benchtrack: ${what}...${tty ? ' 0s' : '\n'}`);
  const timer = tty
    ? setInterval(() => process.stderr.write(`\rbenchtrack: ${what}... ${elapsed()}`), 1000)
    : undefined;
  return () => {
    clearInterval(timer);
    process.stderr.write(`${tty ? '\r' : ''}benchtrack: ${what}: ended after ${elapsed()}\n`);
  };
}
