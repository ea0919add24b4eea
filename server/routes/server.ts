import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BMF_JSON_SCHEMA,
  packageInfo,
  SchemaProbe,
  serverStatsSchema,
  serverVersionSchema,
} from '../../core/index.js';
import type { RouteContext } from '../context.js';

const consoleSchema = z.object({ url: z.string().describe('URL of the web console (console.url)') });
const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  message: z.string().optional().describe('The failing parts, when status is unavailable'),
  database: z.object({
    status: z
      .enum(['ok', 'disk_full', 'reopening', 'unavailable', 'closed', 'damaged'])
      .describe('damaged: a core table or column is missing (changed by hand or by another program)'),
    since: z.string().optional().describe('When the current state began (RFC 3339)'),
    reopened: z.number().int().describe('Times the database was reopened after a fatal error'),
    retried: z
      .number()
      .int()
      .optional()
      .describe(
        'Write transactions run again after a conflict with a concurrent writer (PostgreSQL: serialization failures, deadlocks, unique races), since the start; absent until the first',
      ),
  }),
  workers: z.object({
    status: z.enum(['ok', 'stuck', 'closed']),
    threads: z.number().int(),
    max_threads: z.number().int(),
    tasks_in_flight: z.number().int(),
    oldest_task_ms: z.number().int(),
    task_time_limit_ms: z.number().int(),
    tasks_timed_out: z.number().int(),
    threads_crashed: z.number().int(),
  }),
});
/** Seconds a monitor is asked to wait before asking again when something is failing. */
const HEALTH_RETRY_AFTER_SECONDS = 5;

/** `/v0/server/*`: version, health, statistics, OpenAPI document, BMF JSON Schema, console location. */
export function serverRoutes({ config, pool, services, stats }: RouteContext): FastifyPluginAsyncZod {
  const schema = new SchemaProbe(services.storage);
  return async (app) => {
    app.get(
      '/server/stats',
      {
        schema: {
          tags: ['server'],
          summary:
            'Server statistics (administrators): counts per day, week, month and in total, the most active projects, daily ingest, and the daily snapshots. Computed here; nothing is sent anywhere.',
          security: [{ bearer: [] }],
          response: { 200: serverStatsSchema },
        },
      },
      async (request) => stats.get(await request.user()),
    );
    app.get(
      '/server/version',
      {
        schema: {
          tags: ['server'],
          summary: 'Version of the API server',
          response: { 200: serverVersionSchema },
        },
      },
      async () => ({ version: packageInfo().version }),
    );

    app.get(
      '/server/health',
      {
        schema: {
          tags: ['server'],
          summary:
            'Health of the database and the worker pool (no authentication): 200 when both serve, 503 naming the failing part otherwise',
          response: { 200: healthSchema, 503: healthSchema },
        },
      },
      async (_request, reply) => {
        const engine = services.storage.health();
        const damaged = engine.status === 'ok' && !(await schema.ok());
        const database = damaged ? { ...engine, status: 'damaged' as const } : engine;
        const workers = pool.health();
        const failing = [
          ...(database.status === 'ok' ? [] : [`database: ${database.status}`]),
          ...(workers.status === 'ok' ? [] : [`workers: ${workers.status}`]),
        ];
        if (failing.length === 0) return { status: 'ok' as const, database, workers };
        return reply
          .status(503)
          .header('Retry-After', String(HEALTH_RETRY_AFTER_SECONDS))
          .send({ status: 'unavailable' as const, message: failing.join('; '), database, workers });
      },
    );

    app.get(
      '/server/spec',
      { schema: { tags: ['server'], summary: 'OpenAPI 3 document of this API' } },
      async (_request, reply) => reply.type('application/json').send(app.swagger()),
    );

    app.get(
      '/server/spec/bmf',
      {
        schema: {
          tags: ['server'],
          summary:
            'JSON Schema (draft-07) of the Benchmark Metric Format, for validating custom harness output',
        },
      },
      async (_request, reply) =>
        reply
          .type('application/schema+json')
          .header('cache-control', 'public, max-age=3600')
          .send(BMF_JSON_SCHEMA),
    );

    app.get(
      '/server/config/console',
      {
        schema: {
          tags: ['server'],
          summary: 'Where the web console is served (console.url)',
          response: { 200: consoleSchema },
        },
      },
      async () => ({ url: config.current.console.url }),
    );
  };
}
