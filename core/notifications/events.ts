import { WEBHOOK_EVENTS, type WebhookEvent } from '../schemas/notifications.js';
import type { WebhookRecord } from '../storage/records.js';

/** The events a webhook is sent, as its row keeps them. */
export function webhookEvents(webhook: Pick<WebhookRecord, 'events'>): WebhookEvent[] {
  const named = new Set(webhook.events.split(','));
  return WEBHOOK_EVENTS.filter((event) => named.has(event));
}

/** The `events` column of a list of events: comma-separated, in the order of `WEBHOOK_EVENTS`. */
export function eventsColumn(events: readonly WebhookEvent[]): string {
  return WEBHOOK_EVENTS.filter((event) => events.includes(event)).join(',');
}

/** Whether a notification of `event` goes to the webhook (a test delivery goes to its one webhook alone). */
export function wants(webhook: Pick<WebhookRecord, 'events'>, event: string): boolean {
  return (webhookEvents(webhook) as string[]).includes(event);
}
