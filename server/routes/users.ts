import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listQuerySchema,
  newTokenSchema,
  tokenCreatedSchema,
  tokenSchema,
  updateTokenSchema,
  updateUserSchema,
  userSchema,
} from '../../core/index.js';
import { listOptions, sendPage, type RouteContext } from '../context.js';
import { tokenParams, userParams } from './params.js';

const security = [{ bearer: [] }];

/** `/v0/users`: the server's users (administrators), account settings, and API tokens. */
export function userRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      {
        schema: {
          tags: ['users'],
          summary: 'List users (server administrators only)',
          security,
          querystring: listQuerySchema(['name', 'slug', 'created']),
          response: { 200: z.array(userSchema) },
        },
      },
      async (request, reply) =>
        sendPage(reply, await ctx.users.list(await request.user(), listOptions(request.query))),
    );

    app.get(
      '/users/:user',
      {
        schema: {
          tags: ['users'],
          summary: 'View a user (oneself, or anyone for administrators)',
          security,
          params: userParams,
          response: { 200: userSchema },
        },
      },
      async (request) => ctx.users.get(await request.user(), request.params.user),
    );

    app.patch(
      '/users/:user',
      {
        schema: {
          tags: ['users'],
          summary:
            'Update account settings. A new e-mail address needs a console session, not an API token, and takes effect when the link mailed to it is confirmed',
          security,
          params: userParams,
          body: updateUserSchema,
          response: { 200: userSchema },
        },
      },
      async (request) => ctx.users.update(await request.user(), request.params.user, request.body),
    );

    app.get(
      '/users/:user/tokens',
      {
        schema: {
          tags: ['tokens'],
          summary: "List a user's API tokens",
          security,
          params: userParams,
          querystring: listQuerySchema(['name', 'creation']),
          response: { 200: z.array(tokenSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.apiTokens.list(await request.user(), request.params.user, listOptions(request.query)),
        ),
    );

    app.post(
      '/users/:user/tokens',
      {
        schema: {
          tags: ['tokens'],
          summary: 'Create an API token (needs a console session); the token is shown once',
          security,
          params: userParams,
          body: newTokenSchema,
          response: { 201: tokenCreatedSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.apiTokens.create(await request.user(), request.params.user, request.body)),
    );

    app.get(
      '/users/:user/tokens/:token',
      {
        schema: {
          tags: ['tokens'],
          summary: 'View an API token',
          security,
          params: tokenParams,
          response: { 200: tokenSchema },
        },
      },
      async (request) => ctx.apiTokens.get(await request.user(), request.params.user, request.params.token),
    );

    app.patch(
      '/users/:user/tokens/:token',
      {
        schema: {
          tags: ['tokens'],
          summary: 'Rename an API token',
          security,
          params: tokenParams,
          body: updateTokenSchema,
          response: { 200: tokenSchema },
        },
      },
      async (request) =>
        ctx.apiTokens.rename(
          await request.user(),
          request.params.user,
          request.params.token,
          request.body.name,
        ),
    );

    app.delete(
      '/users/:user/tokens/:token',
      {
        schema: { tags: ['tokens'], summary: 'Revoke an API token for good', security, params: tokenParams },
      },
      async (request, reply) => {
        await ctx.apiTokens.revoke(await request.user(), request.params.user, request.params.token);
        return reply.status(204).send();
      },
    );
  };
}
