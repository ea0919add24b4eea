import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  newPlotSchema,
  perfChangesQuerySchema,
  perfChangesSchema,
  perfImageQuerySchema,
  perfQuerySchema,
  perfSchema,
  plotSchema,
  relativeWindow,
  updatePlotSchema,
  type PerfFormat,
  type PerfImage,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { plotParams, projectParams } from './params.js';
import { encodeBody, heldEtag, identityTags } from '../encoding.js';

const security: Record<string, string[]>[] = [{ bearer: [] }, {}];

const TYPES: Record<PerfFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  arrow: 'application/vnd.apache.arrow.stream',
};

/** `format=` wins; otherwise the Accept header chooses CSV or Arrow; JSON by default. */
function formatOf(request: FastifyRequest, requested: PerfFormat | undefined): PerfFormat {
  if (requested) return requested;
  const accept = request.headers.accept ?? '';
  if (accept.includes('text/csv')) return 'csv';
  if (accept.includes('application/vnd.apache.arrow')) return 'arrow';
  return 'json';
}

const IMAGE_TYPES: Record<PerfImage['format'], string> = {
  png: 'image/png',
  svg: 'image/svg+xml; charset=utf-8',
};

/**
 * Images are cheap to revalidate: public ones may be cached by anyone for a minute, private ones only by the
 * client. An SVG opened on its own is a document of the API's origin: its policy lets it run and load nothing.
 */
function sendImage(reply: FastifyReply, image: PerfImage) {
  reply.header('ETag', image.etag);
  reply.header('Cache-Control', image.public ? 'public, max-age=60' : 'private, max-age=0, must-revalidate');
  if (!image.bytes) return reply.status(304).send();
  if (image.format === 'svg') reply.header('Content-Security-Policy', "default-src 'none'");
  return reply
    .type(IMAGE_TYPES[image.format])
    .send(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
}

/** Perf queries (JSON, CSV, Arrow), perf images, and pinned plots with their images. */
export function perfRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects/:project/perf',
      {
        preHandler: ctx.heavy,
        schema: {
          tags: ['perf'],
          summary:
            'History of many series at once (at most 255 permutations and 50,000 points), as JSON, CSV or Arrow',
          security,
          params: projectParams,
          querystring: perfQuerySchema,
          response: {
            200: perfSchema,
            304: z.null().describe('Unchanged: the answer is still the one If-None-Match names'),
          },
        },
      },
      async (request, reply) => {
        const format = formatOf(request, request.query.format);
        const ifNoneMatch = request.headers['if-none-match'];
        const answer = await ctx.perf.query(
          await request.caller(),
          request.params.project,
          request.query,
          format,
          identityTags(ifNoneMatch),
        );
        // Stored by browsers and asked again with If-None-Match each time: an unchanged answer is a 304.
        reply.header('ETag', answer.bytes ? answer.etag : heldEtag(ifNoneMatch, answer.etag));
        reply.header('Cache-Control', 'private, no-cache');
        reply.header('Vary', 'Accept, Accept-Encoding');
        if (!answer.bytes) return reply.status(304).send(null);
        reply.type(TYPES[format]);
        if (format === 'csv') reply.header('Content-Disposition', 'inline; filename="perf.csv"');
        // already serialized: the bytes go out as they are, gzipped when large and accepted
        return reply.send((await encodeBody(request, reply, answer.bytes)) as never);
      },
    );

    app.get(
      '/projects/:project/perf/changes',
      {
        schema: {
          tags: ['perf'],
          summary:
            'Change points of each series the perf query selects (rank tests, robust to outliers, heavy tails and drift), with the metric, report and version that start each new regime',
          security,
          params: projectParams,
          querystring: perfChangesQuerySchema,
          response: { 200: perfChangesSchema },
        },
      },
      async (request) => ctx.changes.changes(await request.caller(), request.params.project, request.query),
    );

    app.get(
      '/projects/:project/perf/img',
      {
        preHandler: ctx.heavy,
        schema: {
          tags: ['perf'],
          summary:
            'PNG or SVG plot of up to 8 series of one measure, light or dark (ETag, Cache-Control; 304 when unchanged)',
          security,
          params: projectParams,
          querystring: perfImageQuerySchema,
        },
      },
      async (request, reply) => {
        const { title, x_axis, y_axis, width, height, window, changes, regressions, theme, format, ...keys } =
          request.query;
        const image = await ctx.perf.image(
          await request.caller(),
          request.params.project,
          window === undefined ? keys : { ...keys, ...relativeWindow(window, ctx.services.now()) },
          { title, x_axis, y_axis, width, height, changes, regressions, theme, format },
          request.headers['if-none-match'],
        );
        return sendImage(reply, image);
      },
    );

    app.get(
      '/projects/:project/plots',
      {
        schema: {
          tags: ['plots'],
          summary: 'Pinned plots of the dashboard, by index',
          security,
          params: projectParams,
          querystring: z.object({
            per_page: z.coerce.number().int().min(1).max(255).default(64),
            page: z.coerce.number().int().min(0).default(1),
            sort: z.enum(['index', 'title']).default('index'),
            direction: z.enum(['asc', 'desc']).default('asc'),
            search: z.string().min(1).optional(),
          }),
          response: { 200: z.array(plotSchema) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        return sendPage(
          reply,
          await ctx.plots.list(await request.caller(), request.params.project, {
            sort: q.sort,
            direction: q.direction,
            page: q.page,
            perPage: q.per_page,
            search: q.search,
          }),
        );
      },
    );

    app.post(
      '/projects/:project/plots',
      {
        schema: {
          tags: ['plots'],
          summary: 'Pin a plot (at most 64 per project)',
          security,
          params: projectParams,
          body: newPlotSchema,
          response: { 201: plotSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.plots.create(await request.caller(), request.params.project, request.body)),
    );

    app.get(
      '/projects/:project/plots/:plot',
      {
        schema: {
          tags: ['plots'],
          summary: 'View a pinned plot',
          security,
          params: plotParams,
          response: { 200: plotSchema },
        },
      },
      async (request) => ctx.plots.get(await request.caller(), request.params.project, request.params.plot),
    );

    app.patch(
      '/projects/:project/plots/:plot',
      {
        schema: {
          tags: ['plots'],
          summary: 'Update or move a pinned plot',
          security,
          params: plotParams,
          body: updatePlotSchema,
          response: { 200: plotSchema },
        },
      },
      async (request) =>
        ctx.plots.update(await request.caller(), request.params.project, request.params.plot, request.body),
    );

    app.delete(
      '/projects/:project/plots/:plot',
      { schema: { tags: ['plots'], summary: 'Unpin a plot', security, params: plotParams } },
      async (request, reply) => {
        await ctx.plots.delete(await request.caller(), request.params.project, request.params.plot);
        return reply.status(204).send();
      },
    );

    app.get(
      '/projects/:project/plots/:plot/img',
      {
        preHandler: ctx.heavy,
        schema: {
          tags: ['plots'],
          summary: 'PNG of a pinned plot over its window (the first measure)',
          security,
          params: plotParams,
        },
      },
      async (request, reply) =>
        sendImage(
          reply,
          await ctx.plots.image(
            await request.caller(),
            request.params.project,
            request.params.plot,
            request.headers['if-none-match'],
          ),
        ),
    );
  };
}
