// @ts-check
// Notifications and their deliveries: the outbox of events waiting for their deliveries, the claim of due
// deliveries, and pruning.
import { sortRows, table } from './tables.js';

/**
 * @typedef {import('./tables.js').View} View
 * @typedef {import('./tables.js').Row} Row
 */

/** @param {View} view */
export function notificationRepositories(view) {
  const notifications = table(view, 'notifications');
  const deliveries = table(view, 'deliveries');
  const attempts = table(view, 'deliveryAttempts');
  const fresh = () =>
    sortRows(
      [...view.rows('notifications').values()].filter((n) => !n.fanned),
      ['id'],
    );
  const pending = () => [...view.rows('deliveries').values()].filter((d) => d.state === 'pending');
  return {
    webhooks: table(view, 'webhooks'),
    notificationPreferences: table(view, 'notificationPreferences'),
    deliveryAttempts: attempts,
    notifications: {
      ...notifications,
      waiting: async () => fresh().length > 0,
      /** Write transactions run one at a time (index.js): nothing else takes them meanwhile. @param {number} limit */
      takeNew: async (limit) => fresh().slice(0, limit),
      /** @param {Date} before */
      async prune(before) {
        const busy = new Set(pending().map((d) => d.notification_id));
        const doomed = [...view.rows('notifications').values()]
          .filter((n) => n.created < before && n.fanned && !busy.has(n.id))
          .map((n) => n.id);
        const gone = (await deliveries.all({ notification_id: doomed })).map((d) => d.id);
        await attempts.delete({ delivery_id: gone });
        await deliveries.delete({ id: gone });
        return notifications.delete({ id: doomed });
      },
    },
    deliveries: {
      ...deliveries,
      async nextDue() {
        return sortRows(pending(), ['next_attempt'])[0]?.next_attempt ?? undefined;
      },
      /** @param {Date} now @param {Date} leaseUntil @param {number} limit */
      async claim(now, leaseUntil, limit) {
        const due = sortRows(
          pending().filter((d) => d.next_attempt !== null && d.next_attempt <= now),
          ['next_attempt', 'id'],
        ).slice(0, limit);
        const edit = view.edit('deliveries');
        return due.map((d) => {
          const claimed = Object.freeze({
            ...d,
            attempts: d.attempts + 1,
            next_attempt: leaseUntil,
            modified: now,
          });
          edit.set(d.id, claimed);
          return claimed;
        });
      },
    },
  };
}
