import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deliveryBodySchema,
  deliveryListQuerySchema,
  deliverySchema,
  newWebhookSchema,
  notificationChoiceSchema,
  setNotificationChoiceSchema,
  unsubscribeSchema,
  updateWebhookSchema,
  webhookSchema,
} from '../../core/index.js';
import { sendPage, type RouteContext } from '../context.js';
import { deliveryParams, projectParams, userParams, userProjectParams, webhookParams } from './params.js';

const security = [{ bearer: [] }];
const tags = ['notifications'];

/**
 * `/v0/projects/{project}/webhooks`: where a project's events are posted, and every delivery with its attempts;
 * `/v0/users/{user}/notifications`: each person's e-mail choice per project, and the unsubscribe link's endpoint.
 */
export function notificationRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/projects/:project/webhooks',
      {
        schema: {
          tags,
          summary: 'Create a webhook (members who may write to the project)',
          security,
          params: projectParams,
          body: newWebhookSchema,
          response: { 201: webhookSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.webhooks.create(await request.caller(), request.params.project, request.body)),
    );
    app.get(
      '/projects/:project/webhooks',
      {
        schema: {
          tags,
          summary: "List a project's webhooks (members who may write to it)",
          security,
          params: projectParams,
          querystring: deliveryListQuerySchema,
          response: { 200: z.array(webhookSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.webhooks.list(await request.caller(), request.params.project, request.query),
        ),
    );
    app.get(
      '/projects/:project/webhooks/:webhook',
      {
        schema: {
          tags,
          summary: 'View a webhook',
          security,
          params: webhookParams,
          response: { 200: webhookSchema },
        },
      },
      async (request) =>
        ctx.webhooks.get(await request.caller(), request.params.project, request.params.webhook),
    );
    app.patch(
      '/projects/:project/webhooks/:webhook',
      {
        schema: {
          tags,
          summary: 'Change a webhook',
          security,
          params: webhookParams,
          body: updateWebhookSchema,
          response: { 200: webhookSchema },
        },
      },
      async (request) =>
        ctx.webhooks.update(
          await request.caller(),
          request.params.project,
          request.params.webhook,
          request.body,
        ),
    );
    app.delete(
      '/projects/:project/webhooks/:webhook',
      { schema: { tags, summary: 'Delete a webhook and its deliveries', security, params: webhookParams } },
      async (request, reply) => {
        await ctx.webhooks.delete(await request.caller(), request.params.project, request.params.webhook);
        return reply.status(204).send();
      },
    );
    app.post(
      '/projects/:project/webhooks/:webhook/test',
      {
        schema: {
          tags,
          summary: 'Send the webhook a test delivery (event ping) now; follow it in its deliveries',
          security,
          params: webhookParams,
          response: { 202: deliverySchema },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await ctx.webhooks.test(await request.caller(), request.params.project, request.params.webhook),
          ),
    );
    app.get(
      '/projects/:project/webhooks/:webhook/deliveries',
      {
        schema: {
          tags,
          summary: "A webhook's deliveries, newest first, each with every attempt (status, duration, error)",
          security,
          params: webhookParams,
          querystring: deliveryListQuerySchema,
          response: { 200: z.array(deliverySchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.webhooks.deliveries(
            await request.caller(),
            request.params.project,
            request.params.webhook,
            request.query,
          ),
        ),
    );
    app.get(
      '/projects/:project/webhooks/:webhook/deliveries/:delivery',
      {
        schema: {
          tags,
          summary: 'View a delivery with the body it posts',
          security,
          params: deliveryParams,
          response: { 200: deliveryBodySchema },
        },
      },
      async (request) =>
        ctx.webhooks.delivery(
          await request.caller(),
          request.params.project,
          request.params.webhook,
          request.params.delivery,
        ),
    );
    app.post(
      '/projects/:project/webhooks/:webhook/deliveries/:delivery/redeliver',
      {
        schema: {
          tags,
          summary:
            'Send a delivered or failed delivery again (same body and delivery UUID, a new round of attempts)',
          security,
          params: deliveryParams,
          response: { 202: deliverySchema },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await ctx.webhooks.redeliver(
              await request.caller(),
              request.params.project,
              request.params.webhook,
              request.params.delivery,
            ),
          ),
    );

    app.get(
      '/users/:user/notifications',
      {
        schema: {
          tags,
          summary: "A user's e-mail choices (projects not listed: off)",
          security,
          params: userParams,
          response: { 200: z.array(notificationChoiceSchema) },
        },
      },
      async (request, reply) => {
        const choices = await ctx.choices.list(await request.user(), request.params.user);
        return sendPage(reply, { items: choices, total: choices.length });
      },
    );
    app.put(
      '/users/:user/notifications/:project',
      {
        schema: {
          tags,
          summary: "Set a user's e-mail choice for a project they may see",
          security,
          params: userProjectParams,
          body: setNotificationChoiceSchema,
          response: { 200: notificationChoiceSchema },
        },
      },
      async (request) =>
        ctx.choices.set(
          await request.user(),
          request.params.user,
          request.params.project,
          request.body.email,
        ),
    );
    app.post(
      '/notifications/unsubscribe',
      {
        schema: {
          tags,
          summary: "Turn a project's e-mail off with the token of a notification e-mail's link (no login)",
          body: unsubscribeSchema,
          response: { 200: notificationChoiceSchema },
        },
      },
      async (request) => ctx.choices.unsubscribe(request.body.token),
    );
  };
}
