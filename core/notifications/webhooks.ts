import { randomUUID } from 'node:crypto';
import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { ConflictError, InputError, NotFoundError, UnauthorizedError } from '../errors.js';
import { iso } from '../schemas/common.js';
import {
  WEBHOOKS_PER_PROJECT_MAX,
  type DeliveryJson,
  type NewWebhook,
  type UpdateWebhook,
  type WebhookJson,
} from '../schemas/notifications.js';
import type { ServiceContext } from '../services/context.js';
import type { DeliveryRecord, ProjectRecord, WebhookRecord } from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import { parsePayload, webhookBody } from './bodies.js';
import { eventsColumn, webhookEvents } from './events.js';
import { fanOutOne } from './fanout.js';
import { notify } from './outbox.js';
import type { NotificationSignal } from './signal.js';
import { refusedHost } from './targets.js';

/** Attempts a delivery shows at most: a delivery redelivered again and again keeps its newest ones. */
const ATTEMPTS_SHOWN = 30;

async function requireWebhook(
  r: ReadRepositories,
  project: ProjectRecord,
  uuid: string,
): Promise<WebhookRecord> {
  const webhook = await r.webhooks.find({ uuid: uuid.toLowerCase(), project_id: project.id });
  if (!webhook) throw new NotFoundError(`webhook "${uuid}" not found`);
  return webhook;
}

async function requireDelivery(
  r: ReadRepositories,
  webhook: WebhookRecord,
  uuid: string,
): Promise<DeliveryRecord> {
  const delivery = await r.deliveries.find({ uuid: uuid.toLowerCase(), webhook_id: webhook.id });
  if (!delivery) throw new NotFoundError(`delivery "${uuid}" not found`);
  return delivery;
}

/** Deliveries in their wire form, with their events and attempts read in two statements for the whole page. */
async function deliveriesJson(
  r: ReadRepositories,
  webhook: WebhookRecord,
  deliveries: readonly DeliveryRecord[],
): Promise<DeliveryJson[]> {
  if (deliveries.length === 0) return [];
  const ids = deliveries.map((d) => d.id);
  const notifications = new Map(
    (await r.notifications.all({ id: deliveries.map((d) => d.notification_id) })).map((n) => [n.id, n]),
  );
  const attempts = await r.deliveryAttempts.all({ delivery_id: ids });
  return deliveries.map((d) => ({
    uuid: d.uuid,
    webhook: webhook.uuid,
    event: notifications.get(d.notification_id)?.event ?? 'unknown',
    state: d.state,
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .sort((a, b) => a.id - b.id)
      .slice(-ATTEMPTS_SHOWN)
      .map((a) => ({
        status: a.status,
        duration_ms: a.duration_ms,
        error: a.error,
        response: a.response,
        created: iso(a.created),
      })),
    next_attempt: d.state === 'pending' && d.next_attempt ? iso(d.next_attempt) : null,
    created: iso(d.created),
    finished: d.finished ? iso(d.finished) : null,
  }));
}

async function webhookJson(
  r: ReadRepositories,
  project: ProjectRecord,
  webhook: WebhookRecord,
): Promise<WebhookJson> {
  const [last] = (
    await r.deliveries.list({ webhook_id: webhook.id }, { perPage: 1, sort: 'id', direction: 'desc' })
  ).items;
  const event = last && (await r.notifications.find({ id: last.notification_id }))?.event;
  return {
    uuid: webhook.uuid,
    project: project.uuid,
    url: webhook.url,
    format: webhook.format,
    events: webhookEvents(webhook),
    has_secret: webhook.secret !== null,
    last_delivery: last
      ? {
          uuid: last.uuid,
          event: event ?? 'unknown',
          state: last.state,
          status: last.status,
          created: iso(last.created),
        }
      : null,
    created: iso(webhook.created),
    modified: iso(webhook.modified),
  };
}

/**
 * A project's webhooks: members who may write to the project create, list, change and delete them, send a test
 * delivery, see every delivery with its attempts, and redeliver one. Others get what a project they may not
 * change gives (401 anonymous on a public project, 404 otherwise). The secret is write-only.
 */
export class WebhooksService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly signal: NotificationSignal,
  ) {}

  /** The project, for a logged-in member who may change it. */
  async #access(r: ReadRepositories, caller: Caller, ref: string): Promise<ProjectRecord> {
    const { project } = await requireProject(r, caller, ref, 'edit');
    if (caller.kind !== 'user')
      throw new UnauthorizedError('webhooks are for logged-in members of the project');
    return project;
  }

  /** Refuses a URL the server would refuse to deliver to, naming why and the setting that allows it. */
  #checkTarget(text: string): void {
    if (this.ctx.config.current.notifications?.allow_private_targets) return;
    const refused = refusedHost(new URL(text));
    if (refused !== undefined)
      throw new InputError(
        `url: must not point to a loopback, private, link-local or metadata address (${refused}) unless the server configuration sets notifications.allow_private_targets`,
        { field: 'url' },
      );
  }

  async create(caller: Caller, projectRef: string, input: NewWebhook): Promise<WebhookJson> {
    this.#checkTarget(input.url);
    return this.ctx.storage.transaction(async (tx) => {
      const project = await this.#access(tx, caller, projectRef);
      if ((await tx.webhooks.count({ project_id: project.id })) >= WEBHOOKS_PER_PROJECT_MAX)
        throw new ConflictError(
          `project "${project.slug}" has ${WEBHOOKS_PER_PROJECT_MAX} webhooks, the most a project may have: delete one first`,
        );
      const now = this.ctx.now();
      const webhook = await tx.webhooks.insert({
        uuid: randomUUID(),
        project_id: project.id,
        url: input.url,
        secret: input.secret ?? null,
        format: input.format,
        events: eventsColumn(input.events),
        user_id: caller.kind === 'user' ? caller.user.id : null,
        created: now,
        modified: now,
      });
      return webhookJson(tx, project, webhook);
    });
  }

  async list(caller: Caller, projectRef: string, page: { page: number; per_page: number }) {
    return this.ctx.storage.read(async (r) => {
      const project = await this.#access(r, caller, projectRef);
      const found = await r.webhooks.list(
        { project_id: project.id },
        { page: page.page, perPage: page.per_page, sort: 'id', direction: 'asc' },
      );
      const items = [];
      for (const webhook of found.items) items.push(await webhookJson(r, project, webhook));
      return { items, total: found.total };
    });
  }

  async get(caller: Caller, projectRef: string, uuid: string): Promise<WebhookJson> {
    return this.ctx.storage.read(async (r) => {
      const project = await this.#access(r, caller, projectRef);
      return webhookJson(r, project, await requireWebhook(r, project, uuid));
    });
  }

  async update(caller: Caller, projectRef: string, uuid: string, patch: UpdateWebhook): Promise<WebhookJson> {
    if (patch.url !== undefined) this.#checkTarget(patch.url);
    return this.ctx.storage.transaction(async (tx) => {
      const project = await this.#access(tx, caller, projectRef);
      const webhook = await requireWebhook(tx, project, uuid);
      const changes = {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.secret !== undefined ? { secret: patch.secret } : {}),
        ...(patch.format !== undefined ? { format: patch.format } : {}),
        ...(patch.events !== undefined ? { events: eventsColumn(patch.events) } : {}),
        modified: this.ctx.now(),
      };
      await tx.webhooks.update({ id: webhook.id }, changes);
      return webhookJson(tx, project, { ...webhook, ...changes });
    });
  }

  /** Deletes a webhook with its deliveries (pending ones are not sent) and their attempts. */
  async delete(caller: Caller, projectRef: string, uuid: string): Promise<void> {
    await this.ctx.storage.transaction(async (tx) => {
      const project = await this.#access(tx, caller, projectRef);
      const webhook = await requireWebhook(tx, project, uuid);
      await deleteDeliveries(tx, { webhook_id: webhook.id });
      await tx.webhooks.delete({ id: webhook.id });
    });
  }

  /** Queues a `ping` to the webhook at once (answered before it is sent: follow it in the deliveries). */
  async test(caller: Caller, projectRef: string, uuid: string): Promise<DeliveryJson> {
    const json = await this.ctx.storage.transaction(async (tx) => {
      const project = await this.#access(tx, caller, projectRef);
      const webhook = await requireWebhook(tx, project, uuid);
      const now = this.ctx.now();
      const notification = await notify(tx, project.id, { event: 'ping', webhook_id: webhook.id }, now);
      const [delivery] = notification ? await fanOutOne(this.ctx.config, tx, notification, now) : [];
      if (!delivery) throw new NotFoundError(`webhook "${uuid}" not found`);
      return (await deliveriesJson(tx, webhook, [delivery]))[0] as DeliveryJson;
    });
    this.signal.notify();
    return json;
  }

  /** A webhook's deliveries, newest first, each with its attempts. */
  async deliveries(
    caller: Caller,
    projectRef: string,
    uuid: string,
    page: { page: number; per_page: number },
  ) {
    return this.ctx.storage.read(async (r) => {
      const project = await this.#access(r, caller, projectRef);
      const webhook = await requireWebhook(r, project, uuid);
      const found = await r.deliveries.list(
        { webhook_id: webhook.id },
        { page: page.page, perPage: page.per_page, sort: 'id', direction: 'desc' },
      );
      return { items: await deliveriesJson(r, webhook, found.items), total: found.total };
    });
  }

  /** One delivery with the body it posts (signed as posted). */
  async delivery(caller: Caller, projectRef: string, uuid: string, deliveryUuid: string) {
    return this.ctx.storage.read(async (r) => {
      const project = await this.#access(r, caller, projectRef);
      const webhook = await requireWebhook(r, project, uuid);
      const delivery = await requireDelivery(r, webhook, deliveryUuid);
      const notification = await r.notifications.find({ id: delivery.notification_id });
      const [json] = await deliveriesJson(r, webhook, [delivery]);
      const body = notification
        ? webhookBody(webhook.format, notification, delivery.uuid, parsePayload(notification))
        : '';
      return { ...(json as DeliveryJson), body };
    });
  }

  /**
   * Sends a delivered or failed delivery again: the same body, delivery UUID and signature, with a fresh round of
   * attempts. A pending one already waits for its next attempt (409).
   */
  async redeliver(
    caller: Caller,
    projectRef: string,
    uuid: string,
    deliveryUuid: string,
  ): Promise<DeliveryJson> {
    const json = await this.ctx.storage.transaction(async (tx) => {
      const project = await this.#access(tx, caller, projectRef);
      const webhook = await requireWebhook(tx, project, uuid);
      const delivery = await requireDelivery(tx, webhook, deliveryUuid);
      if (delivery.state === 'pending')
        throw new ConflictError(
          `delivery ${delivery.uuid} is pending: its next attempt is at ${delivery.next_attempt ? iso(delivery.next_attempt) : 'once it is claimed'}`,
        );
      const now = this.ctx.now();
      const again = {
        ...delivery,
        state: 'pending' as const,
        attempts: 0,
        next_attempt: now,
        finished: null,
        modified: now,
      };
      await tx.deliveries.update(
        { id: delivery.id, state: delivery.state },
        { state: again.state, attempts: 0, next_attempt: now, finished: null, modified: now },
      );
      return (await deliveriesJson(tx, webhook, [again]))[0] as DeliveryJson;
    });
    this.signal.notify();
    return json;
  }
}

/** Deletes deliveries and their attempts. */
async function deleteDeliveries(tx: WriteRepositories, where: { webhook_id: number }): Promise<void> {
  const ids = (await tx.deliveries.all(where)).map((d) => d.id);
  if (ids.length === 0) return;
  await tx.deliveryAttempts.delete({ delivery_id: ids });
  await tx.deliveries.delete({ id: ids });
}
