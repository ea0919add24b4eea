import { createHmac } from 'node:crypto';

/** One POST of a webhook body, as the sender makes it. */
export interface WebhookPost {
  readonly url: string;
  /** The raw body: the bytes that are signed are the bytes that are sent. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** `notifications.allow_private_targets`: loopback and private addresses may be reached. */
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
}

/** What one attempt gave: an answer (status and the start of its body) or an error, and whether to try again. */
export interface WebhookOutcome {
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
  readonly ms: number;
  /** Another attempt may succeed (network error, timeout, 429, 5xx). */
  readonly retry: boolean;
}

/** Sends webhook bodies over the network (server/webhook-sender.ts); never throws. */
export type WebhookSender = (post: WebhookPost) => Promise<WebhookOutcome>;

/**
 * Pauses before each retry of a delivery, from the attempt before: the first retry comes 15 s after the first
 * attempt, the sixth and last attempt about an hour after the first. A receiver down for a deploy or a short
 * outage gets the event; one down for longer has its deliveries marked failed, to be redelivered by hand.
 */
export const RETRY_DELAYS_MS: readonly number[] = [15_000, 60_000, 300_000, 900_000, 2_400_000];

/** Attempts of one delivery at most: the first and one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long one attempt may take, connection and answer included. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The `X-Benchtrack-Signature` value of a body: `sha256=` and the hex HMAC-SHA256 of its bytes with the secret. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The headers of a webhook POST. */
export function webhookHeaders(event: string, delivery: string, secret: string | null, body: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Benchtrack-Hookshot',
    'x-benchtrack-event': event,
    'x-benchtrack-delivery': delivery,
  };
  if (secret !== null && secret !== '') headers['x-benchtrack-signature'] = webhookSignature(secret, body);
  return headers;
}
