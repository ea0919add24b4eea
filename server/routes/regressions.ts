import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  regressionCountsQuerySchema,
  regressionCountsSchema,
  regressionEventSchema,
  regressionListQuerySchema,
  regressionSchema,
  updateRegressionSchema,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { regressionParams, projectParams } from './params.js';

const security: Record<string, string[]>[] = [{ bearer: [] }, {}];
const tags = ['regressions'];

/** `/v0/projects/{project}/regressions`: one change per branch, testbed and version, from alert to triage. */
export function regressionRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects/:project/regressions',
      {
        schema: {
          tags,
          summary:
            'List regressions (open and closed; suspected ones only when the status filter names them)',
          security,
          params: projectParams,
          querystring: regressionListQuerySchema,
          response: { 200: z.array(regressionSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.regressions.list(await request.caller(), request.params.project, request.query),
        ),
    );

    app.get(
      '/projects/:project/regressions/counts',
      {
        schema: {
          tags,
          summary: 'Count regressions by status under the list’s filters (status aside)',
          security,
          params: projectParams,
          querystring: regressionCountsQuerySchema,
          response: { 200: regressionCountsSchema },
        },
      },
      async (request) =>
        ctx.regressions.counts(await request.caller(), request.params.project, request.query),
    );

    app.get(
      '/projects/:project/regressions/:regression',
      {
        schema: {
          tags,
          summary: 'View a regression with its series and their alerts',
          security,
          params: regressionParams,
          response: { 200: regressionSchema },
        },
      },
      async (request) =>
        ctx.regressions.get(await request.caller(), request.params.project, request.params.regression),
    );

    app.get(
      '/projects/:project/regressions/:regression/history',
      {
        schema: {
          tags,
          summary: 'The status changes and triage of a regression, oldest first',
          security,
          params: regressionParams,
          response: { 200: z.array(regressionEventSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.regressions.history(
            await request.caller(),
            request.params.project,
            request.params.regression,
          ),
        ),
    );

    app.patch(
      '/projects/:project/regressions/:regression',
      {
        schema: {
          tags,
          summary:
            'Triage a regression: status, note, issue URL, assignee (members who may edit the project)',
          security,
          params: regressionParams,
          body: updateRegressionSchema,
          response: { 200: regressionSchema },
        },
      },
      async (request) =>
        ctx.regressions.update(
          await request.caller(),
          request.params.project,
          request.params.regression,
          request.body,
        ),
    );
  };
}
