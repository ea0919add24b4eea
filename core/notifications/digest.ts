import type { LiveConfig } from '../accounts/tokens.js';
import { projectJson } from '../schemas/accounts.js';
import { regressionJsons } from '../regressions/json.js';
import type { LockKey, WriteRepositories } from '../storage/storage.js';
import { notify } from './outbox.js';
import { projectLink } from './payload.js';

const DAY_MS = 86_400_000;
/** How long the outbox keeps a notification whose deliveries are done (digests read the day before). */
export const NOTIFICATIONS_KEPT_MS = 30 * DAY_MS;
/** The meta key of the last UTC day whose digests were made. */
export const DIGEST_DAY_KEY = 'notifications.digest_day';
const DIGEST_TASK: LockKey = { kind: 'maintenance', id: 2 };

/** `YYYY-MM-DD` of a time, in UTC. */
export const utcDay = (time: Date) => time.toISOString().slice(0, 10);

/**
 * The digests of the UTC day before `now`, made once whatever the number of processes (the first to take the
 * task after midnight makes them, and records the day): for each project that someone follows daily and whose
 * regressions were opened, changed or closed that day, a `digest` notification listing those regressions as
 * they are now. Old notifications are pruned in the same pass. Answers the digests made.
 */
export async function makeDigests(config: LiveConfig, tx: WriteRepositories, now: Date): Promise<number> {
  const today = utcDay(now);
  if (!(await tx.locks.tryHold(DIGEST_TASK))) return 0;
  const done = await tx.meta.get(DIGEST_DAY_KEY);
  if (done !== undefined && done >= today) return 0;
  await tx.meta.set(DIGEST_DAY_KEY, today);
  await tx.notifications.prune(new Date(now.getTime() - NOTIFICATIONS_KEPT_MS));
  const until = new Date(`${today}T00:00:00.000Z`);
  const since = new Date(until.getTime() - DAY_MS);
  const followed = new Set(
    (await tx.notificationPreferences.all({ email: 'daily' })).map((c) => c.project_id),
  );
  let made = 0;
  for (const projectId of followed) {
    const project = await tx.projects.find({ id: projectId });
    if (!project) continue;
    const events = await tx.notifications.all({
      project_id: project.id,
      event: ['regression.created', 'regression.updated', 'regression.closed'],
    });
    const ids = [
      ...new Set(
        events
          .filter((n) => n.created >= since && n.created < until && n.regression_id !== null)
          .map((n) => n.regression_id as number),
      ),
    ];
    if (ids.length === 0) continue;
    const regressions = (await tx.regressions.all({ id: ids })).sort((a, b) => a.id - b.id);
    const jsons = await regressionJsons(tx, project, regressions);
    if (jsons.length === 0) continue;
    const organization = await tx.organizations.find({ id: project.organization_id });
    const payload = {
      project: projectJson(project, organization ?? { uuid: '' }),
      since: since.toISOString(),
      until: until.toISOString(),
      regressions: jsons.map((json) => ({
        ...json,
        console_url: projectLink(config, project, 'regressions', json.uuid),
      })),
    };
    await notify(tx, project.id, { event: 'digest', payload: JSON.stringify(payload) }, now);
    made++;
  }
  return made;
}
