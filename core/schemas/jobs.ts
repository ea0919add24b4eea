import { z } from 'zod';
import { publicUserSchema } from './accounts.js';
import { dateTimeSchema, listQuerySchema, uuidSchema } from './common.js';
import { gitHashSchema, nameIdSchema, updateStartPointSchema } from './dimensions.js';
import { reportThresholdsSchema, settingsSchema } from './reports.js';
import { specSchema } from './runners.js';

/** Wire format of jobs: benchmark runs queued for a spec and run by a runner that serves it. */

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out'] as const;
export const jobStateSchema = z.enum(JOB_STATES);

/** Attempts a job gets: a runner lost mid-job returns it to the queue until then, and it fails after the last. */
export const JOB_ATTEMPTS_MAX = 3;
/** A job's own wall-clock limit when it names none, and the longest it may name (seconds). */
export const JOB_TIMEOUT_DEFAULT = 3600;
export const JOB_TIMEOUT_MAX = 86_400;
/** Output a runner sends in one heartbeat at most (characters). */
export const JOB_OUTPUT_CHUNK_MAX = 65_536;

/**
 * Where a runner fetches the repository: an http(s), ssh, git or file URL, or scp-like `user@host:path`. A URL
 * that carries a password is refused (it would show in the job to every reader of the project: give the runner's
 * machine its own git credentials), and so is anything git would read as an option or a transport helper.
 */
const repositorySchema = z
  .string()
  .max(2048, { error: 'must be at most 2048 characters' })
  .superRefine((url, ctx) => {
    const scpLike = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/\s][^\s]*$/.test(url);
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!scpLike && !(parsed && /^(https?|ssh|git|file):$/.test(parsed.protocol)))
      ctx.addIssue({
        code: 'custom',
        message: 'must be an https, http, ssh, git or file URL, or user@host:path',
      });
    else if (parsed?.password)
      ctx.addIssue({
        code: 'custom',
        message:
          "must not carry a password (every reader of the project sees it): give the runner's machine its own git credentials",
      });
  });

/** A file the command writes, relative to the work directory of the job. */
const workPathSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(4096)
  .refine((path) => !/^([/\\]|[A-Za-z]:)/.test(path) && !path.split(/[/\\]/).includes('..'), {
    error: "must be a path inside the job's work directory (relative, without ..)",
  });

/** What to run and how to report it: the options of `benchtrack run`, and where the code is. */
const jobRunFields = {
  spec: specSchema,
  repository: repositorySchema.describe('Git repository the runner clones'),
  hash: gitHashSchema.describe('The commit to check out and report'),
  command: z
    .array(z.string().min(1, { error: 'must not be empty' }).max(4096), {
      error: 'must be a list of strings',
    })
    .min(1, { error: 'must hold the command' })
    .max(256, { error: 'must hold at most 256 arguments' })
    .describe('One string runs through the shell; several (or exec) run directly'),
  exec: z.boolean().default(false),
  shell: z.string().min(1).max(256).optional(),
  flag: z.string().min(1).max(64).optional(),
  build_time: z.boolean().default(false),
  file: z.array(workPathSchema).max(255).default([]).describe('Result files the command writes'),
  file_size: z.array(workPathSchema).max(255).default([]),
  iterations: z.int().min(1).max(1024).default(1),
  allow_failure: z.boolean().default(false),
  backdate: z.int().min(0).max(32_503_680_000).optional().describe('Epoch seconds the run is dated at'),
  timeout: z
    .int()
    .min(1, { error: 'must be at least 1 second' })
    .max(JOB_TIMEOUT_MAX, { error: `must be at most ${JOB_TIMEOUT_MAX} seconds` })
    .default(JOB_TIMEOUT_DEFAULT)
    .describe("Seconds the command may run (the runner's own limit may be lower)"),
  branch: nameIdSchema.describe('The branch the report goes to'),
  start_point: updateStartPointSchema.optional(),
  thresholds: reportThresholdsSchema.optional(),
  settings: settingsSchema.prefault({}),
};

export const newJobSchema = z.strictObject(jobRunFields).superRefine((job, ctx) => {
  if (job.file.length + job.file_size.length > 255)
    ctx.addIssue({
      code: 'custom',
      path: ['file'],
      message: 'file and file_size hold at most 255 paths together',
    });
});

export type NewJob = z.output<typeof newJobSchema>;

/** A job's definition as it is stored and shown: the parsed request, defaults filled in. */
export const jobDefinitionSchema = z.object({
  ...jobRunFields,
  hash: z.string(),
  repository: z.string(),
});

export const jobSchema = jobDefinitionSchema.extend({
  uuid: uuidSchema,
  project: uuidSchema,
  user: publicUserSchema.nullable().describe('Who queued it; the report is theirs'),
  state: jobStateSchema,
  runner: z
    .object({ uuid: uuidSchema, name: z.string(), slug: z.string() })
    .nullable()
    .describe('The runner of the current or last attempt'),
  attempt: z.int().describe(`Attempts so far (at most ${JOB_ATTEMPTS_MAX})`),
  reason: z.string().nullable().describe('Why it failed, timed out or was canceled'),
  report: uuidSchema.nullable().describe('The report of a succeeded job'),
  log: z.object({
    bytes: z.int().describe('Output kept'),
    dropped: z.int().describe('Output beyond the log limit, not kept'),
  }),
  last_heartbeat: dateTimeSchema.nullable(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
  started: dateTimeSchema.nullable().describe('When the current or last attempt began'),
  finished: dateTimeSchema.nullable(),
});

export type JobJson = z.infer<typeof jobSchema>;

export const jobListQuerySchema = listQuerySchema(['created']).extend({
  direction: z.enum(['asc', 'desc']).default('desc'),
  state: jobStateSchema.optional(),
  spec: specSchema.optional(),
});

export const jobLogQuerySchema = z.object({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Only pieces after this position (the last one read); 0 from the start'),
  per_page: z.coerce.number().int().min(1).max(255).default(255),
});

export const jobLogSchema = z.object({
  position: z.int().describe('Grows with every piece: pass the last one read as `after`'),
  attempt: z.int(),
  text: z.string(),
  created: dateTimeSchema,
});

/** The runner's side of a job's lease. */
export const claimSchema = z.strictObject({
  wait: z
    .int()
    .min(0)
    .max(60)
    .default(30)
    .describe('Seconds to wait for a job when none is queued (long poll)'),
});

export const claimedJobSchema = jobSchema.extend({
  lease: z.object({
    expires: dateTimeSchema,
    heartbeat_interval: z.number().describe('Seconds between heartbeats that keep the lease'),
  }),
});

const outputFields = {
  attempt: z.int().min(1).describe('The attempt the runner holds'),
  output: z
    .string()
    .max(JOB_OUTPUT_CHUNK_MAX, { error: `must be at most ${JOB_OUTPUT_CHUNK_MAX} characters` })
    .optional()
    .describe("The command's output since the last heartbeat"),
  dropped: z.int().min(0).default(0).describe('Bytes of output the runner could not send'),
};

export const heartbeatSchema = z.strictObject(outputFields);

export const heartbeatAnswerSchema = z.object({
  state: jobStateSchema.describe('Anything but running: stop the command'),
  lease_expires: dateTimeSchema.nullable(),
});

export const finishJobSchema = z.strictObject({
  ...outputFields,
  state: z.enum(['failed', 'timed_out']),
  reason: z.string().min(1).max(2000),
});

export type Heartbeat = z.output<typeof heartbeatSchema>;
export type FinishJob = z.output<typeof finishJobSchema>;
