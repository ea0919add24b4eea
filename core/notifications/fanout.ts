import { randomUUID } from 'node:crypto';
import type { LiveConfig } from '../accounts/tokens.js';
import type { EmailChoice, NotificationRecord, ProjectRecord, UserRecord } from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import { wants } from './events.js';
import { buildPayload } from './payload.js';

/** Who is told of an event by e-mail: those who chose each regression hear of new ones; the digest is the daily. */
function emailChoiceFor(event: string): EmailChoice | undefined {
  if (event === 'regression.created') return 'each';
  if (event === 'digest') return 'daily';
  return undefined;
}

/**
 * Whether a person may get mail about a project: an unlocked account that may see it (a public project, or a
 * member of its organization, or a server administrator). Read again when the mail is sent, since a member may
 * leave meanwhile.
 */
export async function mayReceive(
  r: ReadRepositories,
  project: ProjectRecord,
  user: UserRecord,
): Promise<boolean> {
  if (user.locked) return false;
  if (project.visibility === 'public' || user.admin) return true;
  return (await r.roles.find({ organization_id: project.organization_id, user_id: user.id })) !== undefined;
}

async function recipients(tx: WriteRepositories, project: ProjectRecord, choice: EmailChoice) {
  const chosen = await tx.notificationPreferences.all({ project_id: project.id, email: choice });
  if (chosen.length === 0) return [];
  const users = await tx.users.all({ id: chosen.map((c) => c.user_id) });
  const allowed = [];
  for (const user of users) if (await mayReceive(tx, project, user)) allowed.push(user);
  return allowed;
}

/**
 * Makes the deliveries of one notification, in the caller's transaction: its payload frozen (built now from the
 * subject as it is), one delivery per webhook that wants the event and per person whose e-mail choice covers it,
 * and the notification marked fanned out. A notification whose project or subject is gone gets none. Answers
 * the deliveries made.
 */
export async function fanOutOne(
  config: LiveConfig,
  tx: WriteRepositories,
  notification: NotificationRecord,
  now: Date,
) {
  const project = await tx.projects.find({ id: notification.project_id });
  const payload =
    notification.payload ??
    (project ? JSON.stringify((await buildPayload(config, tx, project, notification)) ?? null) : 'null');
  await tx.notifications.update({ id: notification.id }, { fanned: true, payload });
  if (!project || payload === 'null') return [];
  const webhooks =
    notification.event === 'ping'
      ? await tx.webhooks.all({ id: notification.webhook_id ?? -1 })
      : (await tx.webhooks.all({ project_id: project.id })).filter((webhook) =>
          wants(webhook, notification.event),
        );
  const choice = emailChoiceFor(notification.event);
  const people = choice ? await recipients(tx, project, choice) : [];
  const targets = [
    ...webhooks.map((webhook) => ({ webhook_id: webhook.id, user_id: null })),
    ...people.map((user) => ({ webhook_id: null, user_id: user.id })),
  ];
  const made = [];
  for (const target of targets)
    made.push(
      await tx.deliveries.insert({
        uuid: randomUUID(),
        notification_id: notification.id,
        project_id: project.id,
        ...target,
        state: 'pending',
        attempts: 0,
        next_attempt: now,
        status: null,
        error: null,
        created: now,
        modified: now,
        finished: null,
      }),
    );
  return made;
}
