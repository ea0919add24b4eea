import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backupCreatedSchema,
  backupRequestSchema,
  backupStatusSchema,
  confirmKeyProblem,
  ForbiddenError,
  InternalError,
  redactConfig,
  type UserCaller,
} from '../../core/index.js';
import type { RouteContext } from '../context.js';

const security = [{ bearer: [] }];
const tags = ['server'];
const documentSchema = z
  .record(z.string(), z.unknown())
  .describe('The configuration document, or {"config": document} as older clients send it');
const confirmSchema = z.object({
  confirm: z
    .string()
    .transform((text) => text.split(',').map((key) => key.trim()))
    .pipe(
      z.array(
        z.string().refine((key) => confirmKeyProblem(key) === undefined, {
          error: (issue) => confirmKeyProblem(String(issue.input)),
        }),
      ),
    )
    .optional()
    .describe(
      'Configuration keys the document may leave out although the running server has a value for them, comma-separated: a section (server, logging, database, ...) or a key in one (security.secret_key, server.tls)',
    ),
});

function requireAdmin(caller: UserCaller): void {
  if (!caller.user.admin) throw new ForbiddenError('server configuration is for server administrators');
}

/** `/v0/server/config`: view and update the running configuration (server administrators). */
export function adminRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/server/config',
      { schema: { tags, summary: 'The running configuration, secrets redacted', security } },
      async (request) => {
        requireAdmin(await request.user());
        return redactConfig(ctx.config.current);
      },
    );

    app.put(
      '/server/config',
      {
        schema: {
          tags,
          summary:
            'Validate, save (BENCHTRACK_CONFIG and BENCHTRACK_CONFIG_PATH) and apply a new configuration',
          description:
            'Secrets sent back as ************ keep their value. The document replaces the whole configuration: one that leaves out security.secret_key, or a key whose running value would then change (falling back to its default), is refused unless ?confirm= names the key or its section. Plugins are loaded and checked; a new one must be an installed package or a file in the configuration directory. A new bind address, TLS setting or body limit opens the new listener before anything is saved, then drains the old one; database, plugins and log destination apply at the next start (listed in the X-Benchtrack-Pending-Restart header). Nothing is saved or applied when any check fails.',
          security,
          querystring: confirmSchema,
          body: documentSchema,
        },
      },
      async (request, reply) => {
        requireAdmin(await request.user());
        if (!ctx.reconfigure) throw new InternalError('this server cannot be reconfigured while running');
        const body = request.body;
        const wrapped =
          Object.keys(body).every((key) => key === 'config' || key === 'delay') && 'config' in body;
        const result = await ctx.reconfigure(wrapped ? body.config : body, request.query.confirm ?? []);
        if (result.pendingRestart.length > 0) {
          reply.header('X-Benchtrack-Pending-Restart', result.pendingRestart.join(', '));
        }
        return result.config;
      },
    );

    app.get(
      '/server/backup',
      {
        schema: {
          tags,
          summary: 'The last backup and the state of every replica (last sync, snapshot, validation, error)',
          security,
          response: { 200: backupStatusSchema },
        },
      },
      async (request) => {
        requireAdmin(await request.user());
        const last = ctx.backups.last;
        return {
          last_backup: last ? { ...last, created: last.created.toISOString() } : null,
          replicas: ctx.replication.status(),
        };
      },
    );

    app.post(
      '/server/backup',
      {
        schema: {
          tags,
          summary: 'Back up the database: a consistent snapshot beside it, optionally gzipped and pushed',
          description:
            "Takes a snapshot while ingest goes on (writers do not wait for it), named backup-<database stem>-<YYYY-MM-DD-HH-MM-SS UTC>, in the directory of database.file. compress gzips it; data_store pushes it to database.data_store and checks its SHA-256 after the upload; remove (or rm) then deletes the local copy. One backup runs at a time (409 otherwise); one asked for in the second of the last gets the next second's name.",
          security,
          body: backupRequestSchema,
          response: { 201: backupCreatedSchema },
        },
      },
      async (request, reply) => {
        requireAdmin(await request.user());
        const body = request.body;
        const { database } = ctx.config.current;
        const result = await ctx.backups.create(
          {
            compress: body.compress ?? false,
            dataStore: body.data_store !== undefined,
            remove: body.remove ?? body.rm ?? false,
          },
          { databaseFile: database.file, dataStore: database.data_store },
        );
        return reply.status(201).send({ ...result, created: result.created.toISOString() });
      },
    );
  };
}
