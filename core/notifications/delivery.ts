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

/** How deliveries are paced; the composition root may replace it (tests shorten the pauses). */
export interface DeliveryTiming {
  /** The pause before each retry, from the attempt before; a delivery gets one attempt more than there are pauses. */
  readonly retryDelaysMs: readonly number[];
  /** How long one attempt may take, connection and answer included. */
  readonly attemptTimeoutMs: number;
  /**
   * How long a claimed delivery is held for its attempt: a process that dies mid-attempt leaves it due again
   * after this. Longer than any attempt (an e-mail relay's own timeouts included).
   */
  readonly leaseMs: number;
  /** How often each API process looks for due work besides being woken by its own writes. */
  readonly pollMs: number;
}

/**
 * The first retry comes 15 s after the first attempt, the sixth and last attempt about an hour after the first.
 * A receiver down for a deploy or a short outage gets the event; one down for longer has its deliveries marked
 * failed, to be redelivered by hand.
 */
export const DELIVERY_TIMING: DeliveryTiming = {
  retryDelaysMs: [15_000, 60_000, 300_000, 900_000, 2_400_000],
  attemptTimeoutMs: 10_000,
  leaseMs: 120_000,
  pollMs: 1_000,
};

/**
 * The pause after attempt `attempts` (1-based) failed, or undefined when it was the last. Up to a tenth more,
 * at random, so that the deliveries a receiver's outage failed together do not all come back at one instant.
 */
export function retryDelay(
  timing: DeliveryTiming,
  attempts: number,
  random = Math.random(),
): number | undefined {
  const base = timing.retryDelaysMs[attempts - 1];
  return base === undefined ? undefined : Math.round(base * (1 + random / 10));
}

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
