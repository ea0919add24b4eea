import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BMF_JSON_SCHEMA, packageInfo, serverVersionSchema } from '../../core/index.js';
import type { RouteContext } from '../context.js';

const consoleSchema = z.object({ url: z.string().describe('URL of the web console (console.url)') });

/** `/v0/server/*`: version, OpenAPI document, BMF JSON Schema, console location. */
export function serverRoutes({ deps }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
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
      async () => ({ url: deps.config.current.console.url }),
    );
  };
}
