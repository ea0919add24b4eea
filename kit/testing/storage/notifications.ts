import { describe, expect, it } from 'vitest';
import type {
  DeliveryRecord,
  New,
  NotificationRecord,
  ProjectRecord,
  Storage,
  WriteRepositories,
} from '../../../core/index.js';
import { at, insertOrganization, insertProject, insertUser, uuid } from './fixtures.js';
import type { Opener } from './harness.js';

const LOCKED = { isolation: 'locked' } as const;

function notification(project: ProjectRecord, minute: number, fanned = false): New<NotificationRecord> {
  return {
    uuid: uuid(),
    project_id: project.id,
    event: 'report.created',
    regression_id: null,
    report_id: null,
    webhook_id: null,
    payload: fanned ? '{}' : null,
    fanned,
    created: at(minute),
  };
}

function delivery(
  notificationRecord: NotificationRecord,
  due: Date | null,
  state: DeliveryRecord['state'] = 'pending',
): New<DeliveryRecord> {
  return {
    uuid: uuid(),
    notification_id: notificationRecord.id,
    project_id: notificationRecord.project_id,
    webhook_id: 1,
    user_id: null,
    state,
    attempts: 0,
    next_attempt: due,
    status: null,
    error: null,
    created: notificationRecord.created,
    modified: notificationRecord.created,
    finished: state === 'pending' ? null : notificationRecord.created,
  };
}

async function insertNotified(tx: WriteRepositories) {
  const project = await insertProject(tx, (await insertOrganization(tx)).id);
  return { project };
}

/** Takes new notifications and marks them fanned out, as the delivery loop does; answers their ids. */
function fanOut(storage: Storage, limit: number): Promise<number[]> {
  return storage.transaction(async (tx) => {
    const taken = await tx.notifications.takeNew(limit);
    for (const n of taken) await tx.notifications.update({ id: n.id }, { fanned: true, payload: '{}' });
    return taken.map((n) => n.id);
  }, LOCKED);
}

/** Webhooks, the outbox of notifications, deliveries with their claims and attempts, and e-mail choices. */
export function describeNotifications(open: Opener): void {
  describe('notifications', () => {
    it('hands out new notifications oldest first, each to one of many concurrent takers', async () => {
      const storage = await open();
      // asked of an empty outbox first: an answer planned then must not stick
      expect(await storage.read((r) => r.notifications.waiting())).toBe(false);
      const ids = await storage.transaction(async (tx) => {
        const { project } = await insertNotified(tx);
        const ids = [];
        for (let i = 0; i < 8; i++) ids.push((await tx.notifications.insert(notification(project, i))).id);
        await tx.notifications.insert(notification(project, 9, true));
        return ids;
      });
      expect(await storage.read((r) => r.notifications.waiting())).toBe(true);
      expect(await fanOut(storage, 2)).toEqual(ids.slice(0, 2));
      const taken = (await Promise.all(Array.from({ length: 6 }, () => fanOut(storage, 2)))).flat();
      // a taker may find nothing while others hold the last rows; none may take a taken one
      expect(new Set(taken).size).toBe(taken.length);
      let left = await fanOut(storage, 100);
      while (left.length > 0) {
        taken.push(...left);
        left = await fanOut(storage, 100);
      }
      expect(taken.sort((a, b) => a - b)).toEqual(ids.slice(2));
      expect(await storage.read((r) => r.notifications.waiting())).toBe(false);
      expect(await storage.transaction((tx) => tx.notifications.takeNew(10))).toEqual([]);
    });

    it('claims due pending deliveries, longest due first, once each, and moves them to the end of the lease', async () => {
      const storage = await open();
      expect(await storage.read((r) => r.deliveries.nextDue())).toBeUndefined();
      const made = await storage.transaction(async (tx) => {
        const { project } = await insertNotified(tx);
        const n = await tx.notifications.insert(notification(project, 0, true));
        return {
          late: await tx.deliveries.insert(delivery(n, at(5))),
          early: await tx.deliveries.insert(delivery(n, at(2))),
          future: await tx.deliveries.insert(delivery(n, at(30))),
          done: await tx.deliveries.insert(delivery(n, at(1), 'delivered')),
          failed: await tx.deliveries.insert(delivery(n, at(1), 'failed')),
        };
      });
      expect(await storage.read((r) => r.deliveries.nextDue())).toEqual(at(2));
      const first = await storage.transaction((tx) => tx.deliveries.claim(at(10), at(11), 1), LOCKED);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({
        uuid: made.early.uuid,
        attempts: 1,
        next_attempt: at(11),
        modified: at(10),
      });
      const rest = await storage.transaction((tx) => tx.deliveries.claim(at(10), at(11), 10), LOCKED);
      expect(rest.map((d) => d.uuid)).toEqual([made.late.uuid]);
      expect(await storage.transaction((tx) => tx.deliveries.claim(at(10), at(11), 10), LOCKED)).toEqual([]);
      expect(await storage.read((r) => r.deliveries.nextDue())).toEqual(at(11));
      // a lease that ends unrecorded (the process died) leaves the delivery due again, as its next attempt
      const again = await storage.transaction((tx) => tx.deliveries.claim(at(12), at(13), 10), LOCKED);
      expect(again.map((d) => [d.id, d.attempts]).sort(([a], [b]) => (a as number) - (b as number))).toEqual([
        [made.late.id, 2],
        [made.early.id, 2],
      ]);
      await storage.transaction((tx) => tx.deliveries.update({ state: 'pending' }, { state: 'delivered' }));
      expect(await storage.read((r) => r.deliveries.nextDue())).toBeUndefined();
    });

    it('never hands one delivery to two of many concurrent claims', async () => {
      const storage = await open();
      const count = 6;
      await storage.transaction(async (tx) => {
        const { project } = await insertNotified(tx);
        const n = await tx.notifications.insert(notification(project, 0, true));
        for (let i = 0; i < count; i++) await tx.deliveries.insert(delivery(n, at(i)));
      });
      const claims = await Promise.all(
        Array.from({ length: 12 }, () =>
          storage.transaction((tx) => tx.deliveries.claim(at(10), at(11), 1), LOCKED),
        ),
      );
      const taken = claims.flat();
      expect(new Set(taken.map((d) => d.id)).size).toBe(taken.length);
      const left = await storage.transaction((tx) => tx.deliveries.claim(at(10), at(11), 100), LOCKED);
      expect(taken.length + left.length).toBe(count);
      for (const d of await storage.read((r) => r.deliveries.all({})))
        expect(d).toMatchObject({ attempts: 1, next_attempt: at(11) });
    });

    it('prunes old notifications with their deliveries and attempts, keeping those still pending', async () => {
      const storage = await open();
      const kept = await storage.transaction(async (tx) => {
        const { project } = await insertNotified(tx);
        const make = async (minute: number, state: DeliveryRecord['state'] | undefined, fanned = true) => {
          const n = await tx.notifications.insert(notification(project, minute, fanned));
          if (state) {
            const d = await tx.deliveries.insert(delivery(n, at(minute), state));
            await tx.deliveryAttempts.insert({
              delivery_id: d.id,
              project_id: project.id,
              status: 500,
              duration_ms: 12,
              error: null,
              response: 'no',
              created: at(minute),
            });
          }
          return n;
        };
        await make(1, 'delivered');
        await make(2, 'failed');
        await make(3, undefined);
        return [await make(4, 'pending'), await make(5, undefined, false), await make(20, 'delivered')];
      });
      expect(await storage.transaction((tx) => tx.notifications.prune(at(10)))).toBe(3);
      await storage.read(async (r) => {
        expect((await r.notifications.all({})).map((n) => n.id).sort((a, b) => a - b)).toEqual(
          kept.map((n) => n.id),
        );
        expect(await r.deliveries.count({})).toBe(2);
        expect(await r.deliveryAttempts.count({})).toBe(2);
      });
      expect(await storage.transaction((tx) => tx.notifications.prune(at(10)))).toBe(0);
    });

    it("keeps one e-mail choice per person and project, and deletes a project's notification rows with it", async () => {
      const storage = await open();
      const { project, other, user } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        const project = await insertProject(tx, organization.id);
        const other = await insertProject(tx, organization.id);
        const user = await insertUser(tx);
        const choice = { user_id: user.id, email: 'each' as const, created: at(0), modified: at(0) };
        await tx.notificationPreferences.insert({ ...choice, project_id: project.id });
        await tx.notificationPreferences.insert({ ...choice, project_id: other.id });
        for (const p of [project, other]) {
          await tx.webhooks.insert({
            uuid: uuid(),
            project_id: p.id,
            url: 'https://example.com/hook',
            secret: 's3cret',
            format: 'json',
            events: 'regression.created',
            user_id: user.id,
            created: at(0),
            modified: at(0),
          });
          const n = await tx.notifications.insert(notification(p, 0, true));
          const d = await tx.deliveries.insert(delivery(n, at(0)));
          await tx.deliveryAttempts.insert({
            delivery_id: d.id,
            project_id: p.id,
            status: null,
            duration_ms: 3,
            error: 'refused',
            response: null,
            created: at(0),
          });
        }
        return { project, other, user };
      });
      await expect(
        storage.transaction((tx) =>
          tx.notificationPreferences.insert({
            user_id: user.id,
            project_id: project.id,
            email: 'daily',
            created: at(1),
            modified: at(1),
          }),
        ),
      ).rejects.toThrow();
      await storage.transaction((tx) => tx.projects.deleteWithData(project.id));
      await storage.read(async (r) => {
        for (const repo of [r.webhooks, r.notifications, r.deliveries, r.deliveryAttempts] as const) {
          expect(await repo.count({ project_id: project.id })).toBe(0);
          expect(await repo.count({ project_id: other.id })).toBe(1);
        }
        expect(await r.notificationPreferences.all({ user_id: user.id })).toMatchObject([
          { project_id: other.id, email: 'each' },
        ]);
        expect(await r.webhooks.find({ project_id: other.id })).toMatchObject({ secret: 's3cret' });
      });
    });
  });
}
