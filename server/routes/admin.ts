import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, InternalError, redactConfig, type UserCaller } from '../../core/index.js';
import type { RouteContext } from '../context.js';

const security = [{ bearer: [] }];
const tags = ['server'];
const documentSchema = z
  .record(z.string(), z.unknown())
  .describe('The configuration document, or {"config": document} as older clients send it');

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
        requireAdmin(await ctx.auth.required(request));
        return redactConfig(ctx.deps.config.current);
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
            'Secrets sent back as ************ keep their value. A new bind address, TLS setting or body limit restarts the listener gracefully; database, plugins and log destination apply at the next start (listed in the X-Benchtrack-Pending-Restart header).',
          security,
          body: documentSchema,
        },
      },
      async (request, reply) => {
        requireAdmin(await ctx.auth.required(request));
        if (!ctx.deps.reconfigure)
          throw new InternalError('this server cannot be reconfigured while running');
        const body = request.body;
        const wrapped =
          Object.keys(body).every((key) => key === 'config' || key === 'delay') && 'config' in body;
        const result = await ctx.deps.reconfigure(wrapped ? body.config : body);
        if (result.pendingRestart.length > 0) {
          reply.header('X-Benchtrack-Pending-Restart', result.pendingRestart.join(', '));
        }
        return result.config;
      },
    );
  };
}
