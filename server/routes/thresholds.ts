import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listQuerySchema,
  modelSchema,
  newThresholdSchema,
  thresholdListQuerySchema,
  thresholdSchema,
  updateThresholdSchema,
  uuidSchema,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { projectParams, thresholdParams } from './params.js';

const security: Record<string, string[]>[] = [{ bearer: [] }, {}];
const modelListQuerySchema = listQuerySchema(['created'])
  .pick({ per_page: true, page: true })
  .extend({
    direction: z.enum(['asc', 'desc']).default('desc').describe('By creation; newest first by default'),
  });
const tags = ['thresholds'];

/** `/v0/projects/{project}/thresholds`: thresholds and the history of their models. */
export function thresholdRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects/:project/thresholds',
      {
        schema: {
          tags,
          summary: 'List thresholds (filter by branch, testbed, measure: UUID, slug or name)',
          security,
          params: projectParams,
          querystring: thresholdListQuerySchema,
          response: { 200: z.array(thresholdSchema) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        return sendPage(
          reply,
          await ctx.thresholds.list(await request.caller(), request.params.project, {
            branch: q.branch,
            testbed: q.testbed,
            measure: q.measure,
            archived: q.archived,
            search: q.search,
            name: q.name,
            sort: q.sort,
            direction: q.direction,
            page: q.page,
            perPage: q.per_page,
          }),
        );
      },
    );

    app.post(
      '/projects/:project/thresholds',
      {
        schema: {
          tags,
          summary: 'Create the threshold of a branch x testbed x measure',
          security,
          params: projectParams,
          body: newThresholdSchema,
          response: { 201: thresholdSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.thresholds.create(await request.caller(), request.params.project, request.body)),
    );

    app.get(
      '/projects/:project/thresholds/:threshold',
      {
        schema: {
          tags,
          summary: 'View a threshold with its current model, or an earlier model (model=<uuid>)',
          security,
          params: thresholdParams,
          querystring: z.object({ model: uuidSchema.optional() }),
          response: { 200: thresholdSchema },
        },
      },
      async (request) =>
        ctx.thresholds.get(
          await request.caller(),
          request.params.project,
          request.params.threshold,
          request.query.model,
        ),
    );

    app.get(
      '/projects/:project/thresholds/:threshold/models',
      {
        schema: {
          tags,
          summary: 'The models a threshold has had, newest first (an addition to the reference API)',
          security,
          params: thresholdParams,
          querystring: modelListQuerySchema,
          response: { 200: z.array(modelSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.thresholds.models(
            await request.caller(),
            request.params.project,
            request.params.threshold,
            { direction: request.query.direction, page: request.query.page, perPage: request.query.per_page },
          ),
        ),
    );

    app.put(
      '/projects/:project/thresholds/:threshold',
      {
        schema: {
          tags,
          summary: 'Replace the model (the old one stays in the history); {"test": null} removes it',
          security,
          params: thresholdParams,
          body: updateThresholdSchema,
          response: { 200: thresholdSchema },
        },
      },
      async (request) =>
        ctx.thresholds.update(
          await request.caller(),
          request.params.project,
          request.params.threshold,
          request.body,
        ),
    );

    app.delete(
      '/projects/:project/thresholds/:threshold',
      {
        schema: {
          tags,
          summary: 'Delete a threshold, its models and its alerts',
          security,
          params: thresholdParams,
        },
      },
      async (request, reply) => {
        await ctx.thresholds.delete(await request.caller(), request.params.project, request.params.threshold);
        return reply.status(204).send();
      },
    );
  };
}
