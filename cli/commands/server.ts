import type { Command } from 'commander';
import { apiCommand, group } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';

/** `benchtrack server`: version, OpenAPI document, and the running configuration (administrators). */
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
        'Secrets sent back as ************ keep their value. A document without security.secret_key or database.file is refused unless --confirm names them. Some settings apply at the next start: the answer says which.',
    },
    (c) =>
      c
        .option('--file <path>', 'the document (default: stdin)')
        .option(
          '--confirm <keys>',
          'keys the document may leave out: security.secret_key, database (comma-separated)',
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
