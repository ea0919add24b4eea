import { z } from 'zod';
import { dateTimeSchema, listQuerySchema, nameSchema, slugSchema, uuidSchema } from './common.js';
import { nameIdSchema } from './dimensions.js';

/** Wire format of runners: machines that run queued benchmark jobs for the specs they serve. */

export const specSchema = slugSchema.describe(
  'A kind of machine, as a slug: jobs for it run on runners that serve it, and report to the testbed of that name',
);

const specsSchema = z
  .array(specSchema, { error: 'must be a list of specs (slugs)' })
  .min(1, { error: 'must name at least one spec' })
  .max(64, { error: 'must name at most 64 specs' })
  .refine((specs) => new Set(specs).size === specs.length, { error: 'must not name a spec twice' });

export const newRunnerSchema = z.strictObject({
  name: nameSchema,
  slug: slugSchema.optional(),
  specs: specsSchema,
  organization: nameIdSchema
    .optional()
    .describe(
      "Organization UUID or slug: the runner serves only its projects (a leader of it may create it); absent: every organization's (server administrators)",
    ),
});

export const updateRunnerSchema = z.strictObject({
  name: nameSchema.optional(),
  slug: slugSchema.optional(),
  specs: specsSchema.optional(),
  archived: z
    .boolean()
    .optional()
    .describe('An archived runner cannot authenticate; its running job returns to the queue'),
});

export const runnerStateSchema = z
  .enum(['idle', 'running', 'offline', 'archived'])
  .describe(
    'running: holds a job; idle: asked for a job or sent a heartbeat within runners.heartbeat_timeout; offline: not since',
  );

export const runnerSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  slug: z.string(),
  organization: uuidSchema.nullable().describe('The organization it serves; null: every one'),
  specs: z.array(z.string()),
  state: runnerStateSchema,
  job: z.object({ uuid: uuidSchema, project: uuidSchema }).nullable().describe('The job it runs now'),
  last_heartbeat: dateTimeSchema.nullable().describe('When it last asked for a job or sent a heartbeat'),
  archived: z.boolean(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});

export const runnerKeySchema = runnerSchema.extend({
  key: z.string().describe('The runner key: shown once, stored hashed (`benchtrack runner up --key`)'),
});

export const runnerListQuerySchema = listQuerySchema(['name', 'slug', 'created']).extend({
  archived: z.stringbool().default(false).describe('true lists only archived runners'),
});

export type RunnerJson = z.infer<typeof runnerSchema>;
export type NewRunner = z.output<typeof newRunnerSchema>;
export type UpdateRunner = z.output<typeof updateRunnerSchema>;
