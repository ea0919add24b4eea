import { z } from 'zod';
import { PLAN_LEVELS } from '../plus/levels.js';
import { authUserSchema } from './accounts.js';
import { dateTimeSchema, uuidSchema } from './common.js';

export const usageSchema = z.object({
  organization: uuidSchema,
  kind: z
    .enum(['self_hosted_free', 'self_hosted_licensed'])
    .describe('Licensed while the organization holds a valid license of a paid level'),
  level: z.enum(PLAN_LEVELS),
  start_time: dateTimeSchema.describe('Start of the period: the license period, or the current UTC day'),
  end_time: dateTimeSchema,
  usage: z.number().int().describe('Metrics submitted in the period'),
  entitlement: z
    .number()
    .int()
    .nullable()
    .describe("The license's metrics per period, or the daily quota; null when unlimited"),
});
export type UsageJson = z.infer<typeof usageSchema>;

const windowCounts = z.object({
  day: z.number().int().describe('Created today (UTC)'),
  week: z.number().int().describe('Created in the last 7 UTC days, today included'),
  month: z.number().int().describe('Created in the last 30 UTC days, today included'),
  total: z.number().int(),
});
export type WindowCounts = z.infer<typeof windowCounts>;

export const serverStatsSchema = z.object({
  timestamp: dateTimeSchema,
  users: windowCounts,
  organizations: windowCounts,
  projects: windowCounts,
  reports: windowCounts,
  metrics: windowCounts,
  top_projects: z
    .array(z.object({ uuid: uuidSchema, name: z.string(), slug: z.string(), reports: z.number().int() }))
    .describe('The projects with the most reports in the last 30 days'),
  daily_metrics: z
    .array(z.object({ day: z.string(), metrics: z.number().int() }))
    .describe('Metrics submitted per UTC day over the last 30 days (days with none left out)'),
  snapshots: z
    .array(
      z.object({
        day: z.string(),
        users: z.number().int(),
        organizations: z.number().int(),
        projects: z.number().int(),
        reports: z.number().int(),
        metrics: z.number().int(),
      }),
    )
    .describe('Totals of the daily snapshots of the last 365 days, oldest first (plus.stats.offset)'),
});
export type ServerStatsJson = z.infer<typeof serverStatsSchema>;

export const oauthQuerySchema = z.strictObject({
  invite: z.string().min(1).max(4096).optional().describe('Invitation token to accept once logged in'),
  claim: uuidSchema.optional().describe('UUID of an unclaimed organization to claim once logged in'),
  plan: z
    .enum(PLAN_LEVELS)
    .optional()
    .describe('Plan level chosen before logging in; returned with the login'),
});
export const oauthUrlSchema = z.object({
  url: z
    .string()
    .describe("The code host's authorize URL, carrying the signed state (valid 10 minutes, once)"),
});
export const oauthLoginSchema = z.strictObject({
  code: z.string().min(1, { error: 'must not be empty' }).max(1024),
  state: z.string().min(1, { error: 'must not be empty' }).max(8192),
});
export const oauthUserSchema = authUserSchema.extend({
  plan: z.enum(PLAN_LEVELS).optional().describe('The plan level the login started with'),
});
