import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptSchema,
  authAckSchema,
  authUserSchema,
  confirmSchema,
  loginSchema,
  oauthLoginSchema,
  oauthQuerySchema,
  oauthUrlSchema,
  oauthUserSchema,
  organizationSchema,
  signupSchema,
} from '../../core/index.js';
import type { RouteContext } from '../context.js';

/**
 * `/v0/auth/*`: sign-up, login by e-mail link or GitHub, confirmation, invitations. Requests that may send an e-mail are
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
          summary:
            'Sign up; a login link is e-mailed (or logged without an SMTP relay). A taken address gets the same 202 and its owner a login link',
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
          summary:
            'Log in (or resend the link): a login link is e-mailed. Unknown and locked addresses get the same 202 and a message saying why',
          body: loginSchema,
          response: { 202: authAckSchema },
        },
      },
      async (request, reply) => reply.status(202).send(await ctx.accounts.login(request.body)),
    );

    app.get(
      '/auth/github',
      {
        ...limited,
        schema: {
          tags: ['auth'],
          summary:
            'Start a login with GitHub (plus.codehost, and an organization with an enterprise license): the URL to send the browser to',
          querystring: oauthQuerySchema,
          response: { 200: oauthUrlSchema },
        },
      },
      async (request) => ctx.codehost.authorizeUrl(request.query),
    );

    app.post(
      '/auth/github',
      {
        ...limited,
        schema: {
          tags: ['auth'],
          summary:
            'Finish a login with GitHub: exchange the code for the primary verified e-mail, log in or sign up, and get a session token',
          body: oauthLoginSchema,
          response: { 200: oauthUserSchema },
        },
      },
      async (request) => ctx.codehost.login(request.body),
    );

    app.post(
      '/auth/confirm',
      {
        schema: {
          tags: ['auth'],
          summary:
            'Exchange the token of an e-mailed link (login, or a new e-mail address) for a session token; each link works once',
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
      async (request) => ctx.accounts.accept(await request.user(), request.body),
    );
  };
}
