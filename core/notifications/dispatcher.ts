import type { ServiceContext } from '../services/context.js';
import type {
  DeliveryRecord,
  NotificationRecord,
  ProjectRecord,
  UserRecord,
  WebhookRecord,
} from '../storage/records.js';
import { notificationMail, parsePayload, webhookBody } from './bodies.js';
import {
  retryDelay,
  webhookHeaders,
  type DeliveryTiming,
  type WebhookOutcome,
  type WebhookSender,
} from './delivery.js';
import { DIGEST_DAY_KEY, makeDigests, utcDay } from './digest.js';
import { fanOutOne, mayReceive } from './fanout.js';
import { consoleLink } from './payload.js';

/** Notifications fanned out in one transaction at most. */
const FAN_OUT_BATCH = 16;
/** Characters of an error kept with a delivery and its attempt. */
const ERROR_KEPT = 500;

/** A claimed delivery with what its attempt needs, read before it is made. */
interface Work {
  readonly notification: NotificationRecord;
  readonly project: ProjectRecord;
  readonly webhook?: WebhookRecord;
  readonly user?: UserRecord;
}

/**
 * The outbox's worker, one per API process: fans out new notifications into deliveries, claims due deliveries
 * (with a lease, so several processes never send one twice at once), makes each attempt outside any transaction,
 * and records it with the next attempt's time. Never throws from an attempt: what went wrong is the attempt's
 * error.
 */
export class NotificationDispatcher {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly send: WebhookSender,
    readonly timing: DeliveryTiming,
  ) {}

  /**
   * Whether notifications wait for their deliveries, when the earliest pending delivery is due, and whether
   * today's digests are still to be made.
   */
  async due(): Promise<{ waiting: boolean; next: Date | undefined; digests: boolean }> {
    const today = utcDay(this.ctx.now());
    return this.ctx.storage.read(async (r) => {
      const digested = await r.meta.get(DIGEST_DAY_KEY);
      return {
        waiting: await r.notifications.waiting(),
        next: await r.deliveries.nextDue(),
        digests: digested === undefined || digested < today,
      };
    });
  }

  /** Makes the digests of the day before, unless this or another process made them today. */
  digests(): Promise<number> {
    return this.ctx.storage.transaction((tx) => makeDigests(this.ctx.config, tx, this.ctx.now()));
  }

  /** Makes the deliveries of waiting notifications; answers how many notifications were fanned out. */
  async fanOut(): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await this.ctx.storage.transaction(
        async (tx) => {
          const now = this.ctx.now();
          const taken = await tx.notifications.takeNew(FAN_OUT_BATCH);
          for (const notification of taken) await fanOutOne(this.ctx.config, tx, notification, now);
          return taken.length;
        },
        { isolation: 'locked' },
      );
      total += done;
      if (done < FAN_OUT_BATCH) return total;
    }
  }

  /** Claims up to `limit` due deliveries for one attempt each. */
  claim(limit: number): Promise<DeliveryRecord[]> {
    return this.ctx.storage.transaction(
      (tx) => {
        const now = this.ctx.now();
        return tx.deliveries.claim(now, new Date(now.getTime() + this.timing.leaseMs), limit);
      },
      { isolation: 'locked' },
    );
  }

  /** Makes one attempt of a claimed delivery and records it. */
  async attempt(delivery: DeliveryRecord): Promise<void> {
    const started = performance.now();
    let outcome: WebhookOutcome;
    try {
      const work = await this.#work(delivery);
      if (!work) return;
      outcome = work.webhook ? await this.#post(delivery, work, work.webhook) : await this.#mail(work);
    } catch (error) {
      outcome = {
        error: error instanceof Error ? error.message : String(error),
        retry: true,
        ms: Math.round(performance.now() - started),
      };
    }
    try {
      await this.#record(delivery, outcome);
    } catch (error) {
      // its lease ends and it is tried again: the receiver may get it twice, never not at all
      this.ctx.logger.error({ err: error, delivery: delivery.uuid }, 'delivery attempt not recorded');
    }
  }

  /** The delivery's notification, project and target; undefined when it is gone (its webhook deleted meanwhile). */
  #work(delivery: DeliveryRecord): Promise<Work | undefined> {
    return this.ctx.storage.read(async (r) => {
      const notification = await r.notifications.find({ id: delivery.notification_id });
      const project = await r.projects.find({ id: delivery.project_id });
      if (!notification || !project) return undefined;
      if (delivery.webhook_id !== null) {
        const webhook = await r.webhooks.find({ id: delivery.webhook_id });
        return webhook && { notification, project, webhook };
      }
      const user = await r.users.find({ id: delivery.user_id ?? -1 });
      if (!user) return undefined;
      // a person who may no longer see the project gets nothing more of it
      return (await mayReceive(r, project, user))
        ? { notification, project, user }
        : { notification, project };
    });
  }

  #post(delivery: DeliveryRecord, work: Work, webhook: WebhookRecord): Promise<WebhookOutcome> {
    const body = webhookBody(
      webhook.format,
      work.notification,
      delivery.uuid,
      parsePayload(work.notification),
    );
    return this.send({
      url: webhook.url,
      body,
      headers: webhookHeaders(work.notification.event, delivery.uuid, webhook.secret, body),
      allowPrivate: this.ctx.config.current.notifications?.allow_private_targets ?? false,
      timeoutMs: this.timing.attemptTimeoutMs,
    });
  }

  async #mail(work: Work): Promise<WebhookOutcome> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const { user, project } = work;
    if (!user) return { error: 'the recipient may no longer see the project', retry: false, ms: ms() };
    const { token } = await this.ctx.tokens.issue('unsubscribe', user.uuid, { project: project.uuid });
    const message = notificationMail(work.notification, parsePayload(work.notification), user, {
      unsubscribe: consoleLink(this.ctx.config, `/notifications/unsubscribe?token=${token}`),
      settings: consoleLink(this.ctx.config, `/console/users/${user.slug}/settings`),
    });
    await this.ctx.mailer.send(message);
    return { retry: false, ms: ms() };
  }

  async #record(delivery: DeliveryRecord, outcome: WebhookOutcome): Promise<void> {
    const delivered = outcome.error === undefined && (outcome.status === undefined || outcome.status < 300);
    const error = outcome.error?.slice(0, ERROR_KEPT) ?? null;
    const status = outcome.status ?? null;
    await this.ctx.storage.transaction(async (tx) => {
      const now = this.ctx.now();
      const current = await tx.deliveries.find({ id: delivery.id });
      if (!current) return;
      await tx.deliveryAttempts.insert({
        delivery_id: delivery.id,
        project_id: delivery.project_id,
        status,
        duration_ms: outcome.ms,
        error,
        response: outcome.body ?? null,
        created: now,
      });
      const delay = !delivered && outcome.retry ? retryDelay(this.timing, delivery.attempts) : undefined;
      const next = delivered
        ? { state: 'delivered' as const, next_attempt: null, finished: now }
        : delay !== undefined
          ? { next_attempt: new Date(now.getTime() + delay) }
          : { state: 'failed' as const, next_attempt: null, finished: now };
      // only the holder of this attempt's lease moves it on (another process may have claimed it since)
      await tx.deliveries.update(
        { id: delivery.id, state: 'pending', attempts: delivery.attempts },
        { ...next, status, error, modified: now },
      );
    });
    this.ctx.logger.info(
      {
        delivery: delivery.uuid,
        webhook: delivery.webhook_id === null ? undefined : delivery.webhook_id,
        attempt: delivery.attempts,
        status: outcome.status,
        error: outcome.error,
        ms: outcome.ms,
      },
      delivered ? 'notification delivered' : 'notification attempt failed',
    );
  }
}
