import type {
  New,
  DeliveriesReader,
  DeliveriesWriter,
  DeliveryRecord,
  NotificationRecord,
  NotificationsReader,
  NotificationsWriter,
  ReadRepositories,
  TableReader,
  TableWriter,
  WriteRepositories,
} from '../../../kit/index.js';
import type { Run } from './regressions.js';

/** What the notification statements need to know of an engine's SQL. */
export interface NotificationDialect {
  /** `$name` as an integer, and as a timestamp (PostgreSQL types a parameter from its statement). */
  readonly int: (name: string) => string;
  readonly time: (name: string) => string;
  /**
   * What ends a SELECT whose rows the transaction goes on to change, so that a concurrent transaction skips them
   * instead of waiting for them or taking them too (empty for an engine with one writer).
   */
  readonly skipLocked: string;
}

const TIMES = ['created', 'modified'] as const;

/** The notification tables as each engine's generic table helpers take them. */
export const NOTIFICATION_TABLES = {
  webhooks: {
    name: 'webhook',
    columns: ['id', 'uuid', 'project_id', 'url', 'secret', 'format', 'events', 'user_id', ...TIMES],
    search: ['uuid', 'url'],
  },
  notifications: {
    name: 'notification',
    columns: [
      'id',
      'uuid',
      'project_id',
      'event',
      'regression_id',
      'report_id',
      'webhook_id',
      'payload',
      'fanned',
      'created',
    ],
  },
  deliveries: {
    name: 'notification_delivery',
    columns: [
      'id',
      'uuid',
      'notification_id',
      'project_id',
      'webhook_id',
      'user_id',
      'state',
      'attempts',
      'next_attempt',
      'status',
      'error',
      ...TIMES,
      'finished',
    ],
  },
  deliveryAttempts: {
    name: 'notification_attempt',
    columns: ['id', 'delivery_id', 'project_id', 'status', 'duration_ms', 'error', 'response', 'created'],
  },
  notificationPreferences: {
    name: 'notification_preference',
    columns: ['user_id', 'project_id', 'email', ...TIMES],
    key: ['user_id', 'project_id'],
  },
} as const;

/** A table as each engine's generic table helpers take it. */
export type NotificationTable = (typeof NOTIFICATION_TABLES)[keyof typeof NOTIFICATION_TABLES];

/** What an engine lends the notification repositories: its generic table helpers, statements and dialect. */
export interface NotificationEngine {
  readonly reader: <R>(table: NotificationTable) => TableReader<R>;
  readonly writer: <R, N>(table: NotificationTable) => TableWriter<R, N>;
  readonly run: Run;
  readonly dialect: NotificationDialect;
}

/** Statements that delete a project's notification rows, children before parents (`$project`: its id). */
export const PROJECT_NOTIFICATION_DATA: readonly string[] = [
  `DELETE FROM notification_attempt WHERE project_id = $project`,
  `DELETE FROM notification_delivery WHERE project_id = $project`,
  `DELETE FROM notification WHERE project_id = $project`,
  `DELETE FROM webhook WHERE project_id = $project`,
  `DELETE FROM notification_preference WHERE project_id = $project`,
];

function notificationsReader(engine: NotificationEngine): NotificationsReader {
  return {
    ...engine.reader<NotificationRecord>(NOTIFICATION_TABLES.notifications),
    async waiting() {
      const rows = await engine.run(`SELECT 1 AS one FROM notification WHERE NOT fanned LIMIT 1`, {});
      return rows.length > 0;
    },
  };
}

function notificationsWriter(engine: NotificationEngine): NotificationsWriter {
  const d = engine.dialect;
  // notifications old enough, with no delivery still to make
  const doomed = `SELECT n.id FROM notification n WHERE n.created < ${d.time('before')} AND n.fanned
    AND NOT EXISTS (SELECT 1 FROM notification_delivery p WHERE p.notification_id = n.id AND p.state = 'pending')`;
  return {
    ...engine.writer<NotificationRecord, New<NotificationRecord>>(NOTIFICATION_TABLES.notifications),
    ...notificationsReader(engine),
    takeNew: (limit) =>
      engine.run<NotificationRecord>(
        `SELECT * FROM notification WHERE NOT fanned ORDER BY id LIMIT ${d.int('limit')}${d.skipLocked}`,
        { limit },
      ),
    async prune(before) {
      await engine.run(
        `DELETE FROM notification_attempt WHERE delivery_id IN
          (SELECT d.id FROM notification_delivery d WHERE d.notification_id IN (${doomed}))`,
        { before },
      );
      await engine.run(`DELETE FROM notification_delivery WHERE notification_id IN (${doomed})`, { before });
      const deleted = await engine.run(`DELETE FROM notification WHERE id IN (${doomed}) RETURNING id`, {
        before,
      });
      return deleted.length;
    },
  };
}

function deliveriesReader(engine: NotificationEngine): DeliveriesReader {
  return {
    ...engine.reader<DeliveryRecord>(NOTIFICATION_TABLES.deliveries),
    async nextDue() {
      const [row] = await engine.run<{ due: Date | null }>(
        `SELECT min(next_attempt) AS due FROM notification_delivery WHERE state = 'pending'`,
        {},
      );
      return row?.due ?? undefined;
    },
  };
}

function deliveriesWriter(engine: NotificationEngine): DeliveriesWriter {
  const d = engine.dialect;
  return {
    ...engine.writer<DeliveryRecord, New<DeliveryRecord>>(NOTIFICATION_TABLES.deliveries),
    ...deliveriesReader(engine),
    claim: (now, leaseUntil, limit) =>
      engine.run<DeliveryRecord>(
        `UPDATE notification_delivery SET attempts = attempts + 1, next_attempt = ${d.time('lease')},
            modified = ${d.time('now')}
          WHERE id IN (SELECT id FROM notification_delivery
            WHERE state = 'pending' AND next_attempt <= ${d.time('now')}
            ORDER BY next_attempt, id LIMIT ${d.int('limit')}${d.skipLocked})
          RETURNING *`,
        { now, lease: leaseUntil, limit },
      ),
  };
}

type Names = keyof typeof NOTIFICATION_TABLES;

export function notificationReaders(engine: NotificationEngine): Pick<ReadRepositories, Names> {
  const t = NOTIFICATION_TABLES;
  return {
    webhooks: engine.reader(t.webhooks),
    notifications: notificationsReader(engine),
    deliveries: deliveriesReader(engine),
    deliveryAttempts: engine.reader(t.deliveryAttempts),
    notificationPreferences: engine.reader(t.notificationPreferences),
  };
}

export function notificationWriters(engine: NotificationEngine): Pick<WriteRepositories, Names> {
  const t = NOTIFICATION_TABLES;
  return {
    webhooks: engine.writer(t.webhooks),
    notifications: notificationsWriter(engine),
    deliveries: deliveriesWriter(engine),
    deliveryAttempts: engine.writer(t.deliveryAttempts),
    notificationPreferences: engine.writer(t.notificationPreferences),
  };
}
