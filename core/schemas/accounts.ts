import { z } from 'zod';
import type {
  ApiTokenRecord,
  MemberRecord,
  OrganizationRecord,
  ProjectRecord,
  UserRecord,
} from '../storage/records.js';
import { dateTimeSchema, iso, listQuerySchema, nameSchema, slugSchema, uuidSchema } from './common.js';

/** Wire format of users, sessions, API tokens, organizations, members and projects. */

/** User names: letters, digits, inner spaces and `, . - '` (reference). */
export const userNameSchema = nameSchema.regex(/^[\p{L}\p{N}](?:[\p{L}\p{N} ,.'-]*[\p{L}\p{N}.])?$/u, {
  error: "must be letters and digits with inner spaces or , . - '",
});
export const emailSchema = z
  .email({ error: 'must be an e-mail address' })
  .max(254)
  .transform((e) => e.toLowerCase());

export const signupSchema = z.strictObject({
  name: userNameSchema,
  slug: slugSchema.optional(),
  email: emailSchema,
  i_agree: z.literal(true, { error: 'must be true: accept the terms to sign up' }),
  invite: z.string().min(1).optional().describe('Invitation token to join an organization'),
  claim: uuidSchema.optional().describe('UUID of an unclaimed organization to claim'),
});
export const loginSchema = z.strictObject({ email: emailSchema, invite: z.string().min(1).optional() });
export const confirmSchema = z.strictObject({ token: z.string().min(1) });
export const acceptSchema = z.strictObject({ invite: z.string().min(1) });
export const authAckSchema = z.object({ email: z.string() });

export const userSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  slug: z.string(),
  email: z.string(),
  admin: z.boolean(),
  locked: z.boolean(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
export const publicUserSchema = z.object({ uuid: uuidSchema, name: z.string(), slug: z.string() });
export const authUserSchema = z.object({
  user: userSchema,
  token: z.string().describe('Session JWT: send as Authorization: Bearer <token>'),
  creation: dateTimeSchema,
  expiration: dateTimeSchema,
});
export const updateUserSchema = z.strictObject({
  name: userNameSchema.optional(),
  slug: slugSchema.optional(),
  email: emailSchema.optional(),
  admin: z.boolean().optional().describe('Server administrators only'),
  locked: z.boolean().optional().describe('Server administrators only'),
});

export const newTokenSchema = z.strictObject({
  name: nameSchema,
  ttl: z
    .number()
    .int()
    .min(1, { error: 'must be at least 1 second' })
    .max(4_294_967_295)
    .optional()
    .describe('Lifetime in seconds; unlimited when absent'),
});
export const updateTokenSchema = z.strictObject({ name: nameSchema });
export const tokenSchema = z.object({
  uuid: uuidSchema,
  user: uuidSchema,
  name: z.string(),
  creation: dateTimeSchema,
  expiration: dateTimeSchema,
  revoked: dateTimeSchema.nullable(),
});
export const tokenCreatedSchema = tokenSchema.extend({
  token: z.string().describe('The API token; shown once, never again'),
});

export const organizationRoleSchema = z.enum(['leader', 'member']);
export const newOrganizationSchema = z.strictObject({ name: nameSchema, slug: slugSchema.optional() });
export const updateOrganizationSchema = z.strictObject({
  name: nameSchema.optional(),
  slug: slugSchema.optional(),
  license: z
    .string({ error: 'must be a license (a JWT) or null' })
    .min(1, { error: 'must not be empty; send null to remove the license' })
    .max(4096, { error: 'must be at most 4096 characters' })
    .nullable()
    .optional()
    .describe('The license JWT (needs the manage permission); null removes it'),
});
export const organizationSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  slug: z.string(),
  license: z.string().nullable().describe('The license JWT, as set'),
  claimed: dateTimeSchema.nullable(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
export const memberSchema = publicUserSchema.extend({
  email: z.string(),
  role: organizationRoleSchema,
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
export const newMemberSchema = z.strictObject({
  email: emailSchema,
  name: userNameSchema.optional(),
  role: organizationRoleSchema,
});
export const updateMemberSchema = z.strictObject({ role: organizationRoleSchema });

export const visibilitySchema = z.enum(['public', 'private']);
export const newProjectSchema = z.strictObject({
  name: nameSchema,
  slug: slugSchema.optional(),
  url: z.url({ error: 'must be a URL' }).nullable().optional(),
  visibility: visibilitySchema.default('public'),
});
export const updateProjectSchema = z.strictObject({
  name: nameSchema.optional(),
  slug: slugSchema.optional(),
  url: z.url({ error: 'must be a URL' }).nullable().optional().describe('null removes the URL'),
  visibility: visibilitySchema.optional(),
});
/** Days of reports a project's summary counts, today included. */
export const PROJECT_SUMMARY_DAYS = 30;
export const projectSummarySchema = z
  .object({
    last_report: dateTimeSchema.nullable().describe('When the newest report started; null without reports'),
    alerts: z.object({ active: z.int() }),
    regressions: z.object({ open: z.int().describe('untriaged and acknowledged') }),
    reports: z
      .array(z.int())
      .length(PROJECT_SUMMARY_DAYS)
      .describe(`Reports per UTC day over the last ${PROJECT_SUMMARY_DAYS} days, oldest first, today last`),
  })
  .describe("What a project card shows: its last run, what needs triage, and its runs' rhythm");
export const projectSchema = z.object({
  uuid: uuidSchema,
  organization: uuidSchema,
  name: z.string(),
  slug: z.string(),
  url: z.string().nullable(),
  visibility: visibilitySchema,
  created: dateTimeSchema,
  modified: dateTimeSchema,
  summary: projectSummarySchema.optional().describe('In project lists asked with summary=true'),
});
export const projectListQuerySchema = listQuerySchema(['name', 'slug', 'created']).extend({
  summary: z
    .stringbool()
    .default(false)
    .describe(
      "true adds each project's summary (last report, active alerts, open regressions, reports per day)",
    ),
});

export type UserJson = z.infer<typeof userSchema>;
export type ProjectJson = z.infer<typeof projectSchema>;

export function userJson(user: UserRecord): UserJson {
  return {
    uuid: user.uuid,
    name: user.name,
    slug: user.slug,
    email: user.email,
    admin: user.admin,
    locked: user.locked,
    created: iso(user.created),
    modified: iso(user.modified),
  };
}

export function publicUserJson(user: UserRecord): z.infer<typeof publicUserSchema> {
  return { uuid: user.uuid, name: user.name, slug: user.slug };
}

export function tokenJson(token: ApiTokenRecord, user: UserRecord): z.infer<typeof tokenSchema> {
  return {
    uuid: token.uuid,
    user: user.uuid,
    name: token.name,
    creation: iso(token.creation),
    expiration: iso(token.expiration),
    revoked: token.revoked ? iso(token.revoked) : null,
  };
}

export function organizationJson(organization: OrganizationRecord): z.infer<typeof organizationSchema> {
  return {
    uuid: organization.uuid,
    name: organization.name,
    slug: organization.slug,
    license: organization.license,
    claimed: organization.claimed ? iso(organization.claimed) : null,
    created: iso(organization.created),
    modified: iso(organization.modified),
  };
}

export function memberJson(member: MemberRecord): z.infer<typeof memberSchema> {
  return {
    uuid: member.uuid,
    name: member.name,
    slug: member.slug,
    email: member.email,
    role: member.role,
    created: iso(member.role_created),
    modified: iso(member.role_modified),
  };
}

export function projectJson(project: ProjectRecord, organization: { uuid: string }): ProjectJson {
  return {
    uuid: project.uuid,
    organization: organization.uuid,
    name: project.name,
    slug: project.slug,
    url: project.url,
    visibility: project.visibility,
    created: iso(project.created),
    modified: iso(project.modified),
  };
}
