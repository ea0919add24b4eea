import type { DeliveryRecord, NotificationRecord } from '../../../kit/index.js';
import { perDialect } from './sql.js';
import { extended, table, tableSpec, type Shared } from './table.js';

/**
 * New notifications, for the transaction that fans them out: with several writers a concurrent one skips the rows
 * this one locked instead of waiting for them or taking them too; with one writer nothing else can take them.
 */
const TAKE_NEW = perDialect(
  (d) =>
    `SELECT * FROM notification WHERE NOT fanned ORDER BY id LIMIT $limit::int${d.capabilities.skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''}`,
);

/** Notifications old enough, with no delivery still to make. */
const DOOMED = perDialect(
  (d) => `SELECT n.id FROM notification n WHERE n.created < $before::${d.timestamp} AND n.fanned
    AND NOT EXISTS (SELECT 1 FROM notification_delivery p WHERE p.notification_id = n.id AND p.state = 'pending')`,
);

/** Moves due deliveries to the end of a lease and counts the attempt (see `DeliveriesWriter.claim`). */
const CLAIM = perDialect(
  (d) => `UPDATE notification_delivery SET attempts = attempts + 1, next_attempt = $lease::${d.timestamp},
      modified = $now::${d.timestamp}
    WHERE id IN (SELECT id FROM notification_delivery
      WHERE state = 'pending' AND next_attempt <= $now::${d.timestamp}
      ORDER BY next_attempt, id LIMIT $limit::int${d.capabilities.skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
    RETURNING *`,
);

export const NOTIFICATIONS = {
  webhooks: table(tableSpec('webhook', { search: ['uuid', 'url'] })),
  notifications: extended(
    tableSpec('notification'),
    (db) => ({
      async waiting() {
        const rows = await db.query(`SELECT 1 AS one FROM notification WHERE NOT fanned LIMIT 1`);
        return rows.length > 0;
      },
    }),
    (db) => ({
      takeNew: (limit) => db.query<NotificationRecord>(TAKE_NEW(db.dialect), { limit }),
      async prune(before) {
        const doomed = DOOMED(db.dialect);
        await db.execute(
          `DELETE FROM notification_attempt WHERE delivery_id IN
            (SELECT d.id FROM notification_delivery d WHERE d.notification_id IN (${doomed}))`,
          { before },
        );
        await db.execute(`DELETE FROM notification_delivery WHERE notification_id IN (${doomed})`, {
          before,
        });
        return db.execute(`DELETE FROM notification WHERE id IN (${doomed})`, { before });
      },
    }),
  ),
  deliveries: extended(
    tableSpec('notification_delivery'),
    (db) => ({
      async nextDue() {
        const [row] = await db.query<{ due: Date | null }>(
          `SELECT min(next_attempt) AS due FROM notification_delivery WHERE state = 'pending'`,
        );
        return row?.due ?? undefined;
      },
    }),
    (db) => ({
      claim: (now, leaseUntil, limit) =>
        db.query<DeliveryRecord>(CLAIM(db.dialect), { now, lease: leaseUntil, limit }),
    }),
  ),
  deliveryAttempts: table(tableSpec('notification_attempt')),
  notificationPreferences: table(tableSpec('notification_preference', { key: ['user_id', 'project_id'] })),
} satisfies Partial<Shared>;
