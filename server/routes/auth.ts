import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptSchema,
  authAckSchema,
  authUserSchema,
  confirmSchema,
  loginSchema,
  organizationSchema,
  signupSchema,
} from '../../core/index.js';
import type { RouteContext } from '../context.js';

/**
 * `/v0/auth/*`: sign-up, login by e-mail link, confirmation, invitations. Requests that may send an e-mail are
 * limited per client address; confirmations are limited by their failures only, so a valid link always works.
 */
export function authRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    const limited = {
      preHandler: async (request: FastifyRequest) => ctx.attempts.take(request.ip, 'authentication attempts'),
    };

    app.post(
      '/auth/signup',
      {
        ...limited,
        schema: {
          tags: ['auth'],
          summary: 'Sign up; a login link is e-mailed (or logged without an SMTP relay)',
          body: signupSchema,
          response: { 202: authAckSchema },
        },
      },
      async (request, reply) => reply.status(202).send(await ctx.accounts.signup(request.body)),
    );

    app.post(
      '/auth/login',
      {
        ...limited,
        schema: {
          tags: ['auth'],
          summary: 'Log in (or resend the link): a login link is e-mailed',
          body: loginSchema,
          response: { 202: authAckSchema },
        },
      },
      async (request, reply) => reply.status(202).send(await ctx.accounts.login(request.body)),
    );

    app.post(
      '/auth/confirm',
      {
        schema: {
          tags: ['auth'],
          summary: 'Exchange the token of a login link for a session token',
          body: confirmSchema,
          response: { 200: authUserSchema },
        },
      },
      async (request) =>
        ctx.failures.check(request.ip, request.body.token, () => ctx.accounts.confirm(request.body.token)),
    );

    app.post(
      '/auth/accept',
      {
        ...limited,
        schema: {
          tags: ['auth'],
          summary: 'Accept an invitation while logged in',
          security: [{ bearer: [] }],
          body: acceptSchema,
          response: { 200: organizationSchema },
        },
      },
      async (request) => ctx.accounts.accept(await ctx.auth.required(request), request.body),
    );
  };
}
