import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  allowedSchema,
  projectListQuerySchema,
  projectSchema,
  updateProjectSchema,
} from '../../core/index.js';
import { listOptions, sendPage, type RouteContext } from '../context.js';
import { projectParams, projectPermissionParams } from './params.js';

const security = [{ bearer: [] }];
const tags = ['projects'];

/** `/v0/projects`: public projects and those the caller may see; settings; the permission check. */
export function projectRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects',
      {
        schema: {
          tags,
          summary: 'List public projects and those the caller may see',
          querystring: projectListQuerySchema,
          response: { 200: z.array(projectSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.projects.list(await request.caller(), {
            ...listOptions(request.query),
            summary: request.query.summary,
          }),
        ),
    );
    app.get(
      '/projects/:project',
      {
        schema: {
          tags,
          summary: 'View a project (public ones need no token)',
          params: projectParams,
          response: { 200: projectSchema },
        },
      },
      async (request) => ctx.projects.get(await request.caller(), request.params.project),
    );
    app.patch(
      '/projects/:project',
      {
        schema: {
          tags,
          summary: 'Update a project',
          security,
          params: projectParams,
          body: updateProjectSchema,
          response: { 200: projectSchema },
        },
      },
      async (request) => ctx.projects.update(await request.user(), request.params.project, request.body),
    );
    app.delete(
      '/projects/:project',
      { schema: { tags, summary: 'Delete a project and all its data', security, params: projectParams } },
      async (request, reply) => {
        await ctx.projects.delete(await request.user(), request.params.project);
        return reply.status(204).send();
      },
    );
    app.get(
      '/projects/:project/allowed/:permission',
      {
        schema: {
          tags,
          summary: 'Whether the caller has a permission',
          security,
          params: projectPermissionParams,
          response: { 200: allowedSchema },
        },
      },
      async (request) =>
        ctx.projects.allowed(await request.user(), request.params.project, request.params.permission),
    );
  };
}
