import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alertCountsSchema,
  alertListQuerySchema,
  alertScopeQuerySchema,
  alertSchema,
  dismissAlertsSchema,
  getMetric,
  newReportSchema,
  newRunSchema,
  oneMetricSchema,
  reportListQuerySchema,
  reportSchema,
  updateAlertSchema,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { alertParams, metricParams, projectParams, reportParams } from './params.js';

const security: Record<string, string[]>[] = [{ bearer: [] }, {}];

/**
 * Large responses are built by the services in their documented shape; validating them again on the way out
 * would cost more than building them, so these routes serialize with plain JSON.stringify.
 */
const plainJson = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

/** Reports, `POST /v0/run`, single metrics and alerts. */
export function reportRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/projects/:project/reports',
      {
        ...plainJson,
        // only expanded lists are heavy: a plain page is a few kilobytes
        preHandler: async (request, reply) => {
          if ((request.query as { expand?: boolean }).expand) await ctx.heavy(request, reply);
        },
        schema: {
          tags: ['reports'],
          summary: 'Submit a report: results as BMF or raw harness output, thresholds applied, alerts raised',
          security,
          params: projectParams,
          body: newReportSchema,
          response: { 201: reportSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            request.body.job
              ? await ctx.reports.createForJob(await request.runner(), request.params.project, request.body)
              : await ctx.reports.create(await request.caller(), request.params.project, request.body),
          ),
    );

    app.post(
      '/run',
      {
        ...plainJson,
        schema: {
          tags: ['reports'],
          summary:
            'Submit a run: like a report, with defaults from the run context and a project made on the fly',
          security,
          body: newRunSchema,
          response: { 201: reportSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await ctx.reports.run(await request.caller(), request.body)),
    );

    app.get(
      '/projects/:project/reports',
      {
        ...plainJson,
        // only expanded lists are heavy: a plain page is a few kilobytes
        preHandler: async (request, reply) => {
          if ((request.query as { expand?: boolean }).expand) await ctx.heavy(request, reply);
        },
        schema: {
          tags: ['reports'],
          summary: 'List reports, newest first; results and alerts only with expand=true',
          security,
          params: projectParams,
          querystring: reportListQuerySchema,
          response: { 200: z.array(reportSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.reports.list(await request.caller(), request.params.project, request.query),
        ),
    );

    app.get(
      '/projects/:project/reports/:report',
      {
        ...plainJson,
        schema: {
          tags: ['reports'],
          summary: 'View a report',
          security,
          params: reportParams,
          response: { 200: reportSchema },
        },
      },
      async (request) =>
        ctx.reports.get(await request.caller(), request.params.project, request.params.report),
    );

    app.delete(
      '/projects/:project/reports/:report',
      {
        schema: {
          tags: ['reports'],
          summary: 'Delete a report with its metrics and alerts',
          security,
          params: reportParams,
        },
      },
      async (request, reply) => {
        await ctx.reports.delete(await request.caller(), request.params.project, request.params.report);
        return reply.status(204).send();
      },
    );

    app.get(
      '/projects/:project/metrics/:metric',
      {
        schema: {
          tags: ['reports'],
          summary: 'One metric with its context, boundary and alert',
          security,
          params: metricParams,
          response: { 200: oneMetricSchema },
        },
      },
      async (request) =>
        getMetric(ctx.services, await request.caller(), request.params.project, request.params.metric),
    );

    app.get(
      '/projects/:project/alerts',
      {
        schema: {
          tags: ['alerts'],
          summary: 'List alerts: active first, then the most recently changed',
          security,
          params: projectParams,
          querystring: alertListQuerySchema,
          response: { 200: z.array(alertSchema) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        return sendPage(
          reply,
          await ctx.alerts.list(await request.caller(), request.params.project, q, {
            status: q.status,
            sort: q.sort,
            direction: q.direction ?? (q.sort === 'status' ? 'asc' : 'desc'),
            page: q.page,
            perPage: q.per_page,
          }),
        );
      },
    );

    app.patch(
      '/projects/:project/alerts',
      {
        schema: {
          tags: ['alerts'],
          summary:
            'Dismiss every active alert of the project, or those of the branch, testbed, benchmark and measure given',
          security,
          params: projectParams,
          querystring: alertScopeQuerySchema,
          body: dismissAlertsSchema,
          response: { 200: z.object({ dismissed: z.int() }) },
        },
      },
      async (request) => ctx.alerts.dismissAll(await request.caller(), request.params.project, request.query),
    );

    app.get(
      '/projects/:project/alerts/counts',
      {
        schema: {
          tags: ['alerts'],
          summary: 'Count alerts by status under the branch, testbed, benchmark and measure filters',
          security,
          params: projectParams,
          querystring: alertScopeQuerySchema,
          response: { 200: alertCountsSchema },
        },
      },
      async (request) => ctx.alerts.counts(await request.caller(), request.params.project, request.query),
    );

    app.get(
      '/projects/:project/alerts/:alert',
      {
        schema: {
          tags: ['alerts'],
          summary: 'View an alert',
          security,
          params: alertParams,
          response: { 200: alertSchema },
        },
      },
      async (request) => ctx.alerts.get(await request.caller(), request.params.project, request.params.alert),
    );

    app.patch(
      '/projects/:project/alerts/:alert',
      {
        schema: {
          tags: ['alerts'],
          summary: 'Dismiss or reactivate an alert',
          security,
          params: alertParams,
          body: updateAlertSchema,
          response: { 200: alertSchema },
        },
      },
      async (request) =>
        ctx.alerts.update(
          await request.caller(),
          request.params.project,
          request.params.alert,
          request.body.status,
        ),
    );
  };
}
