import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  jobListQuerySchema,
  jobLogQuerySchema,
  jobLogSchema,
  jobSchema,
  newJobSchema,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { jobParams, projectParams } from './params.js';

const security: Record<string, string[]>[] = [{ bearer: [] }, {}];
const tags = ['jobs'];

/** `/v0/projects/{project}/jobs`: benchmark runs queued for a spec, their state and their output. */
export function jobRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/projects/:project/jobs',
      {
        schema: {
          tags,
          summary: 'Queue a job: a runner of its spec runs the command at the commit and reports the results',
          security: [{ bearer: [] }],
          params: projectParams,
          body: newJobSchema,
          response: { 201: jobSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.jobs.queue(await request.caller(), request.params.project, request.body)),
    );
    app.get(
      '/projects/:project/jobs',
      {
        schema: {
          tags,
          summary: 'List jobs, newest first',
          security,
          params: projectParams,
          querystring: jobListQuerySchema,
          response: { 200: z.array(jobSchema) },
        },
      },
      async (request, reply) =>
        sendPage(reply, await ctx.jobs.list(await request.caller(), request.params.project, request.query)),
    );
    app.get(
      '/projects/:project/jobs/:job',
      {
        schema: { tags, summary: 'View a job', security, params: jobParams, response: { 200: jobSchema } },
      },
      async (request) => ctx.jobs.get(await request.caller(), request.params.project, request.params.job),
    );
    app.get(
      '/projects/:project/jobs/:job/log',
      {
        schema: {
          tags,
          summary: "The job's output after a position, oldest first (follow it with the last position read)",
          security,
          params: jobParams,
          querystring: jobLogQuerySchema,
          response: { 200: z.array(jobLogSchema) },
        },
      },
      async (request) =>
        ctx.jobs.log(
          await request.caller(),
          request.params.project,
          request.params.job,
          request.query.after,
          request.query.per_page,
        ),
    );
    app.post(
      '/projects/:project/jobs/:job/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel a queued or running job (its runner stops the command)',
          security: [{ bearer: [] }],
          params: jobParams,
          response: { 200: jobSchema },
        },
      },
      async (request) => ctx.jobs.cancel(await request.caller(), request.params.project, request.params.job),
    );
  };
}
