import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  allowedSchema,
  authAckSchema,
  listQuerySchema,
  memberSchema,
  newMemberSchema,
  newOrganizationSchema,
  newProjectSchema,
  organizationSchema,
  projectListQuerySchema,
  projectSchema,
  updateMemberSchema,
  updateOrganizationSchema,
  usageSchema,
} from '../../core/index.js';
import { listOptions, sendPage, type RouteContext } from '../context.js';
import { memberParams, organizationParams, organizationPermissionParams } from './params.js';

const security = [{ bearer: [] }];
const tags = ['organizations'];

/** `/v0/organizations`: organizations, their members and invitations, and their projects. */
export function organizationRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/organizations',
      {
        schema: {
          tags,
          summary: "List the caller's organizations",
          security,
          querystring: listQuerySchema(['name', 'slug', 'created']),
          response: { 200: z.array(organizationSchema) },
        },
      },
      async (request, reply) =>
        sendPage(reply, await ctx.organizations.list(await request.user(), listOptions(request.query))),
    );
    app.post(
      '/organizations',
      {
        schema: {
          tags,
          summary: 'Create an organization (the caller becomes leader)',
          security,
          body: newOrganizationSchema,
          response: { 201: organizationSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await ctx.organizations.create(await request.user(), request.body)),
    );
    app.get(
      '/organizations/:organization',
      {
        schema: {
          tags,
          summary: 'View an organization',
          security,
          params: organizationParams,
          response: { 200: organizationSchema },
        },
      },
      async (request) => ctx.organizations.get(await request.user(), request.params.organization),
    );
    app.patch(
      '/organizations/:organization',
      {
        schema: {
          tags,
          summary: 'Update an organization',
          security,
          params: organizationParams,
          body: updateOrganizationSchema,
          response: { 200: organizationSchema },
        },
      },
      async (request) =>
        ctx.organizations.update(await request.user(), request.params.organization, request.body),
    );
    app.delete(
      '/organizations/:organization',
      {
        schema: {
          tags,
          summary: 'Delete an organization that has no projects',
          security,
          params: organizationParams,
        },
      },
      async (request, reply) => {
        await ctx.organizations.delete(await request.user(), request.params.organization);
        return reply.status(204).send();
      },
    );
    app.get(
      '/organizations/:organization/allowed/:permission',
      {
        schema: {
          tags,
          summary: 'Whether the caller has a permission',
          security,
          params: organizationPermissionParams,
          response: { 200: allowedSchema },
        },
      },
      async (request) =>
        ctx.organizations.allowed(
          await request.user(),
          request.params.organization,
          request.params.permission,
        ),
    );
    app.get(
      '/organizations/:organization/usage',
      {
        schema: {
          tags,
          summary: 'Metrics used in the current period against the license or the daily quota',
          security,
          params: organizationParams,
          response: { 200: usageSchema },
        },
      },
      async (request) => ctx.usage.get(await request.user(), request.params.organization),
    );
    app.post(
      '/organizations/:organization/claim',
      {
        schema: {
          tags,
          summary: 'Claim an organization created by anonymous runs',
          security,
          params: organizationParams,
          response: { 201: organizationSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.organizations.claim(await request.user(), request.params.organization)),
    );

    app.get(
      '/organizations/:organization/members',
      {
        schema: {
          tags,
          summary: 'List members',
          security,
          params: organizationParams,
          querystring: listQuerySchema(['name', 'slug']),
          response: { 200: z.array(memberSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.members.list(
            await request.user(),
            request.params.organization,
            listOptions(request.query),
          ),
        ),
    );
    app.post(
      '/organizations/:organization/members',
      {
        schema: {
          tags,
          summary: 'Invite a member by e-mail',
          security,
          params: organizationParams,
          body: newMemberSchema,
          response: { 202: authAckSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(await ctx.members.invite(await request.user(), request.params.organization, request.body)),
    );
    app.get(
      '/organizations/:organization/members/:user',
      {
        schema: {
          tags,
          summary: 'View a member',
          security,
          params: memberParams,
          response: { 200: memberSchema },
        },
      },
      async (request) =>
        ctx.members.get(await request.user(), request.params.organization, request.params.user),
    );
    app.patch(
      '/organizations/:organization/members/:user',
      {
        schema: {
          tags,
          summary: "Change a member's role",
          security,
          params: memberParams,
          body: updateMemberSchema,
          response: { 200: memberSchema },
        },
      },
      async (request) =>
        ctx.members.update(
          await request.user(),
          request.params.organization,
          request.params.user,
          request.body.role,
        ),
    );
    app.delete(
      '/organizations/:organization/members/:user',
      { schema: { tags, summary: 'Remove a member (or leave)', security, params: memberParams } },
      async (request, reply) => {
        await ctx.members.remove(await request.user(), request.params.organization, request.params.user);
        return reply.status(204).send();
      },
    );

    app.get(
      '/organizations/:organization/projects',
      {
        schema: {
          tags: ['projects'],
          summary: "List an organization's projects",
          security,
          params: organizationParams,
          querystring: projectListQuerySchema,
          response: { 200: z.array(projectSchema) },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await ctx.projects.listForOrganization(await request.user(), request.params.organization, {
            ...listOptions(request.query),
            summary: request.query.summary,
          }),
        ),
    );
    app.post(
      '/organizations/:organization/projects',
      {
        schema: {
          tags: ['projects'],
          summary: 'Create a project',
          security,
          params: organizationParams,
          body: newProjectSchema,
          response: { 201: projectSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.projects.create(await request.user(), request.params.organization, request.body)),
    );
  };
}
