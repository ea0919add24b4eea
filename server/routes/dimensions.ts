import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  branchSchema,
  deleteQuerySchema,
  dimensionListQuerySchema,
  dimensionSchema,
  measureSchema,
  newBenchmarkSchema,
  newBranchSchema,
  newMeasureSchema,
  newTestbedSchema,
  updateBenchmarkSchema,
  updateBranchSchema,
  updateMeasureSchema,
  updateTestbedSchema,
  uuidSchema,
  type DimensionKind,
} from '../../core/index.js';
import { listOptions, sendPage, type RouteContext } from '../context.js';
import { dimensionParams, projectParams } from './params.js';

interface KindRoutes {
  readonly kind: DimensionKind;
  readonly path: string;
  readonly tag: string;
  readonly json: z.ZodType;
  readonly create: z.ZodType<{ name: string }>;
  readonly update: z.ZodType<object>;
}

const KINDS: readonly KindRoutes[] = [
  {
    kind: 'branch',
    path: 'branches',
    tag: 'branches',
    json: branchSchema,
    create: newBranchSchema,
    update: updateBranchSchema,
  },
  {
    kind: 'testbed',
    path: 'testbeds',
    tag: 'testbeds',
    json: dimensionSchema,
    create: newTestbedSchema,
    update: updateTestbedSchema,
  },
  {
    kind: 'benchmark',
    path: 'benchmarks',
    tag: 'benchmarks',
    json: dimensionSchema,
    create: newBenchmarkSchema,
    update: updateBenchmarkSchema,
  },
  {
    kind: 'measure',
    path: 'measures',
    tag: 'measures',
    json: measureSchema,
    create: newMeasureSchema,
    update: updateMeasureSchema,
  },
];

const security: Record<string, string[]>[] = [{ bearer: [] }, {}];

type ListQuery = ReturnType<typeof listOptions<'name' | 'created' | 'modified'>> & { archived: boolean };
type Params = Record<string, string> & { project: string };

/** `/v0/projects/{project}/{branches,testbeds,benchmarks,measures}`: the same five operations for each. */
export function dimensionRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    for (const { kind, path, tag, json, create, update } of KINDS) {
      const itemParams = dimensionParams(kind);
      const tags = [tag];
      const refOf = (params: Record<string, string>) => params[kind] as string;

      app.get(
        `/projects/:project/${path}`,
        {
          schema: {
            tags,
            summary: `List ${path} (archived ones only with archived=true)`,
            security,
            params: projectParams,
            querystring: dimensionListQuerySchema(['name', 'created', 'modified']),
            response: { 200: z.array(json) },
          },
        },
        async (request, reply) => {
          const query = request.query as Parameters<typeof listOptions<'name'>>[0] & { archived: boolean };
          const options: ListQuery = { ...listOptions(query), archived: query.archived };
          return sendPage(
            reply,
            await ctx.dimensions.list(
              await request.caller(),
              (request.params as Params).project,
              kind,
              options,
            ),
          );
        },
      );

      app.post(
        `/projects/:project/${path}`,
        {
          schema: {
            tags,
            summary: `Create a ${kind}`,
            security,
            params: projectParams,
            body: create,
            response: { 201: json },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(
              await ctx.dimensions.create(await request.caller(), request.params.project, kind, request.body),
            ),
      );

      app.get(
        `/projects/:project/${path}/:${kind}`,
        {
          schema: {
            tags,
            summary: `View a ${kind}`,
            security,
            params: itemParams,
            ...(kind === 'branch'
              ? {
                  querystring: z.object({ head: uuidSchema.optional().describe('Show this (earlier) head') }),
                }
              : {}),
            response: { 200: json },
          },
        },
        async (request) =>
          ctx.dimensions.get(
            await request.caller(),
            (request.params as Params).project,
            kind,
            refOf(request.params as Params),
            (request.query as { head?: string } | undefined)?.head,
          ),
      );

      app.patch(
        `/projects/:project/${path}/:${kind}`,
        {
          schema: {
            tags,
            summary: `Update or archive a ${kind}${kind === 'branch' ? ' (a new start point replaces the head)' : ''}`,
            security,
            params: itemParams,
            body: update,
            response: { 200: json },
          },
        },
        async (request) =>
          ctx.dimensions.update(
            await request.caller(),
            (request.params as Params).project,
            kind,
            refOf(request.params as Params),
            request.body as object,
          ),
      );

      app.delete(
        `/projects/:project/${path}/:${kind}`,
        {
          schema: {
            tags,
            summary: `Delete a ${kind}; one with data answers 409 unless cascade=true`,
            security,
            params: itemParams,
            querystring: deleteQuerySchema,
          },
        },
        async (request, reply) => {
          await ctx.dimensions.delete(
            await request.caller(),
            (request.params as Params).project,
            kind,
            refOf(request.params as Params),
            (request.query as { cascade: boolean }).cascade,
          );
          return reply.status(204).send();
        },
      );
    }
  };
}
