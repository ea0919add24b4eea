import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  claimedJobSchema,
  claimSchema,
  finishJobSchema,
  heartbeatAnswerSchema,
  heartbeatSchema,
  newRunnerSchema,
  NotFoundError,
  runnerKeySchema,
  runnerListQuerySchema,
  runnerSchema,
  updateRunnerSchema,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { runnerJobParams, runnerParams } from './params.js';

const security = [{ bearer: [] }];
const tags = ['runners'];

/**
 * `/v0/runners`: runners managed by server administrators and organization leaders (a key each, shown once),
 * and the endpoints runners call with their key: claim a job (a long poll), heartbeats, the end of a failed
 * attempt. A successful attempt ends with the runner's report (`POST /v0/projects/{project}/reports` with `job`).
 */
export function runnerRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    // long polls end at once when the server closes, instead of holding the shutdown for their wait
    const closing = new AbortController();
    app.addHook('preClose', async () => closing.abort());

    app.get(
      '/runners',
      {
        schema: {
          tags,
          summary:
            'List runners: every one for server administrators, those of the organizations one leads otherwise',
          security,
          querystring: runnerListQuerySchema,
          response: { 200: z.array(runnerSchema) },
        },
      },
      async (request, reply) => sendPage(reply, await ctx.runners.list(await request.user(), request.query)),
    );
    app.post(
      '/runners',
      {
        schema: {
          tags,
          summary: 'Create a runner; the answer holds its key, shown this once',
          security,
          body: newRunnerSchema,
          response: { 201: runnerKeySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await ctx.runners.create(await request.user(), request.body)),
    );
    app.get(
      '/runners/:runner',
      {
        schema: {
          tags,
          summary: 'View a runner',
          security,
          params: runnerParams,
          response: { 200: runnerSchema },
        },
      },
      async (request) => ctx.runners.get(await request.user(), request.params.runner),
    );
    app.patch(
      '/runners/:runner',
      {
        schema: {
          tags,
          summary: 'Rename a runner, change its specs, archive or unarchive it',
          security,
          params: runnerParams,
          body: updateRunnerSchema,
          response: { 200: runnerSchema },
        },
      },
      async (request) => ctx.runners.update(await request.user(), request.params.runner, request.body),
    );
    app.post(
      '/runners/:runner/key',
      {
        schema: {
          tags,
          summary: 'Rotate the key of a runner: the old key stops working at once',
          security,
          params: runnerParams,
          response: { 201: runnerKeySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await ctx.runners.rotateKey(await request.user(), request.params.runner)),
    );

    app.post(
      '/runners/:runner/claim',
      {
        schema: {
          tags,
          summary: 'Runner key: wait for a job of its specs and take it (204 when none came within the wait)',
          security,
          params: runnerParams,
          body: claimSchema.prefault({}),
          response: { 200: claimedJobSchema, 204: z.null().describe('No job came within the wait') },
        },
      },
      async (request, reply) => {
        const runner = ownRunner(await request.runner(), request.params.runner);
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const job = await ctx.leases.claim(
          runner,
          request.body.wait,
          AbortSignal.any([closing.signal, gone.signal]),
        );
        return job ? job : reply.status(204).send(null);
      },
    );
    app.post(
      '/runners/:runner/jobs/:job/heartbeat',
      {
        schema: {
          tags,
          summary: "Runner key: extend the job's lease and send the command's output",
          security,
          params: runnerJobParams,
          body: heartbeatSchema,
          response: { 200: heartbeatAnswerSchema },
        },
      },
      async (request) =>
        ctx.leases.heartbeat(
          ownRunner(await request.runner(), request.params.runner),
          request.params.job,
          request.body,
        ),
    );
    app.post(
      '/runners/:runner/jobs/:job/finish',
      {
        schema: {
          tags,
          summary: 'Runner key: end the attempt as failed or timed out, with the reason',
          security,
          params: runnerJobParams,
          body: finishJobSchema,
        },
      },
      async (request, reply) => {
        await ctx.leases.finish(
          ownRunner(await request.runner(), request.params.runner),
          request.params.job,
          request.body,
        );
        return reply.status(204).send();
      },
    );
  };
}

/** The key's runner must be the one of the path: another runner's path is a 404. */
function ownRunner<R extends { uuid: string; slug: string }>(runner: R, ref: string): R {
  if (runner.uuid !== ref.toLowerCase() && runner.slug !== ref)
    throw new NotFoundError(`runner "${ref}" not found (the key belongs to runner "${runner.slug}")`);
  return runner;
}
