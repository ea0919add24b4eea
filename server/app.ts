import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import type { DependencyContainer } from 'tsyringe';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { packageInfo, type Config } from '../core/index.js';
import { Authenticator, decorateCaller } from './auth.js';
import { CONFIG, LOGGER } from './container.js';
import { BODY_LIMIT_CEILING, limitBodies } from './body-limit.js';
import { clientErrorHandler, EXPOSED_HEADERS } from './client-errors.js';
import { errorHandler, MAX_PARAM_LENGTH } from './error-handler.js';
import { heavyAnswerSent } from './heavy-requests.js';
import { routeContext, type Reconfigure } from './context.js';
import { adminRoutes } from './routes/admin.js';
import { authRoutes } from './routes/auth.js';
import { dimensionRoutes } from './routes/dimensions.js';
import { organizationRoutes } from './routes/organizations.js';
import { jobRoutes } from './routes/jobs.js';
import { notificationRoutes } from './routes/notifications.js';
import { perfRoutes } from './routes/perf.js';
import { projectRoutes } from './routes/projects.js';
import { regressionRoutes } from './routes/regressions.js';
import { reportRoutes } from './routes/reports.js';
import { runnerRoutes } from './routes/runners.js';
import { serverRoutes } from './routes/server.js';
import { thresholdRoutes } from './routes/thresholds.js';
import { userRoutes } from './routes/users.js';
import { tlsOptions } from './tls.js';

export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export const API_PREFIX = '/v0';

/**
 * Builds the fastify application (not listening). Route modules add themselves under `/v0`. `listener` (TLS,
 * trusted proxies) defaults to the running configuration's; a configuration update passes the new one. The body
 * limit is read from the running configuration for every request.
 */
export async function buildApp(
  container: DependencyContainer,
  listener: Config['server'] = container.resolve(CONFIG).current.server,
  reconfigure?: Reconfigure,
): Promise<App> {
  const logger = container.resolve(LOGGER);
  const config = container.resolve(CONFIG);
  const bodyLimit = () => config.current.server.request_body_max_bytes;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_CEILING,
    https: tlsOptions(listener.tls),
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    return503OnClosing: true,
    // request.ip is the client named by X-Forwarded-For only when the peer is a configured proxy.
    trustProxy: listener.trusted_proxies?.length ? listener.trusted_proxies : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: clientErrorHandler(logger),
    // errors the router raises before any route or hook (414, malformed URL) get the one error shape too
    frameworkErrors: (error, request, reply) => {
      reply.header('Access-Control-Allow-Origin', '*').header('X-Total-Count', '0');
      return handleError(error, request, reply);
    },
  }) as unknown as App;
  const handleError = errorHandler(bodyLimit);

  limitBodies(app, bodyLimit);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      request_id: request.id,
      error_code: 'not_found',
      message: `no route ${request.method} ${request.url.split('?')[0]}; see GET ${API_PREFIX}/server/spec for the API`,
    }),
  );

  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 86_400,
    strictPreflight: false,
  });

  // While closing, answer in-flight requests with `Connection: close` so keep-alive clients do not hold the
  // shutdown open until their idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', heavyAnswerSent);
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing) reply.header('Connection', 'close');
    if (!reply.hasHeader('x-total-count')) {
      const ok = reply.statusCode < 300;
      reply.header(
        'X-Total-Count',
        ok && request.method !== 'DELETE' && request.method !== 'OPTIONS' ? '1' : '0',
      );
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Benchtrack API',
        description: 'Continuous benchmarking: reports, thresholds, alerts and perf history.',
        version: packageInfo().version,
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });

  decorateCaller(app, container.resolve(Authenticator));
  const ctx = routeContext(container, reconfigure);
  for (const routes of [
    serverRoutes,
    adminRoutes,
    authRoutes,
    userRoutes,
    organizationRoutes,
    projectRoutes,
    dimensionRoutes,
    thresholdRoutes,
    reportRoutes,
    regressionRoutes,
    perfRoutes,
    runnerRoutes,
    jobRoutes,
    notificationRoutes,
  ]) {
    await app.register(routes(ctx), { prefix: API_PREFIX });
  }
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.status(200).send());
  return app;
}
