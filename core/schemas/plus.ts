import { z } from 'zod';
import { PLAN_LEVELS } from '../plus/license.js';
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
