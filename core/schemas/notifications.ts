import { z } from 'zod';
import { dateTimeSchema, listQuerySchema, uuidSchema } from './common.js';

/** Wire format of notifications: projects' webhooks, their deliveries, and each person's e-mail choices. */

/** Events a webhook may be sent, in the order its `events` list shows them. */
export const WEBHOOK_EVENTS = [
  'regression.created',
  'regression.updated',
  'regression.closed',
  'report.created',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What a webhook gets when it names no events: what happens to the project's regressions. */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  'regression.created',
  'regression.updated',
  'regression.closed',
];

/** Webhooks a project may have at most: each event is posted to every one of them. */
export const WEBHOOKS_PER_PROJECT_MAX = 20;

const urlSchema = z
  .string()
  .max(2048, { error: 'must be at most 2048 characters' })
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http or https URL' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: 'must use http or https' });
    else if (url.username !== '' || url.password !== '')
      ctx.addIssue({
        code: 'custom',
        message: 'must not contain a user name or password: give the webhook a secret instead',
      });
  })
  .describe('Where events are posted (http or https)');

const secretSchema = z
  .string()
  .min(8, { error: 'must be at least 8 characters' })
  .max(256, { error: 'must be at most 256 characters' })
  .describe(
    'Key of the X-Benchtrack-Signature header (sha256=<hex HMAC-SHA256 of the raw body>); write-only, never shown again',
  );

export const webhookFormatSchema = z
  .enum(['json', 'slack'])
  .describe(
    "json: Benchtrack's event body; slack: the body of Slack's incoming webhooks (also Mattermost's)",
  );

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` }), {
    error: 'must be a list of events',
  })
  .min(1, { error: 'must name at least one event' })
  .refine((events) => new Set(events).size === events.length, { error: 'must not name an event twice' })
  .describe(`Events the webhook is sent: ${WEBHOOK_EVENTS.join(', ')}`);

export const newWebhookSchema = z.strictObject({
  url: urlSchema,
  secret: secretSchema.optional(),
  format: webhookFormatSchema.default('json'),
  events: eventsSchema.default([...DEFAULT_WEBHOOK_EVENTS]),
});

export const updateWebhookSchema = z.strictObject({
  url: urlSchema.optional(),
  secret: secretSchema.nullable().optional().describe('A new key; null removes it (bodies go unsigned)'),
  format: webhookFormatSchema.optional(),
  events: eventsSchema.optional(),
});

export const deliveryStateSchema = z
  .enum(['pending', 'delivered', 'failed'])
  .describe('pending: waits for its next attempt; delivered: answered 2xx; failed: given up');

export const deliveryAttemptSchema = z.object({
  status: z.int().nullable().describe("The answer's HTTP status; null when there was none (see error)"),
  duration_ms: z.int(),
  error: z.string().nullable(),
  response: z.string().nullable().describe("The first kilobyte of the answer's body"),
  created: dateTimeSchema,
});

export const deliverySchema = z.object({
  uuid: uuidSchema.describe('The X-Benchtrack-Delivery header'),
  webhook: uuidSchema,
  event: z.string().describe(`${WEBHOOK_EVENTS.join(', ')}, or ping (a test delivery)`),
  state: deliveryStateSchema,
  attempts: z.array(deliveryAttemptSchema).describe('Every attempt, oldest first'),
  next_attempt: dateTimeSchema.nullable().describe('When a pending delivery is tried next'),
  created: dateTimeSchema,
  finished: dateTimeSchema.nullable(),
});

export const deliveryBodySchema = deliverySchema.extend({
  body: z.string().describe('The body as posted (and signed)'),
});

export const webhookSchema = z.object({
  uuid: uuidSchema,
  project: uuidSchema,
  url: z.string(),
  format: webhookFormatSchema,
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  has_secret: z.boolean().describe('Bodies are signed (the secret itself is never shown)'),
  last_delivery: deliverySchema
    .pick({ uuid: true, event: true, state: true, created: true })
    .extend({ status: z.int().nullable() })
    .nullable(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});

export const deliveryListQuerySchema = listQuerySchema(['created']).pick({ per_page: true, page: true });

export const emailChoiceSchema = z
  .enum(['off', 'each', 'daily'])
  .describe(
    'off; each: an e-mail for each new regression; daily: one digest a day of the regressions of the day before',
  );

export const notificationChoiceSchema = z.object({
  project: z.object({ uuid: uuidSchema, name: z.string(), slug: z.string() }),
  email: emailChoiceSchema,
  modified: dateTimeSchema,
});

export const setNotificationChoiceSchema = z.strictObject({ email: emailChoiceSchema });

export const unsubscribeSchema = z.strictObject({
  token: z.string().min(1).max(4096).describe('The token of the link in a notification e-mail'),
});

export type WebhookJson = z.infer<typeof webhookSchema>;
export type DeliveryJson = z.infer<typeof deliverySchema>;
export type NewWebhook = z.output<typeof newWebhookSchema>;
export type UpdateWebhook = z.output<typeof updateWebhookSchema>;
export type NotificationChoiceJson = z.infer<typeof notificationChoiceSchema>;
