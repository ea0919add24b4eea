import type { UserCaller } from '../accounts/users.js';
import { requireUser } from '../accounts/users.js';
import { requireProject } from '../access/resolve.js';
import { UnauthorizedError } from '../errors.js';
import { iso } from '../schemas/common.js';
import type { NotificationChoiceJson } from '../schemas/notifications.js';
import type { ServiceContext } from '../services/context.js';
import type {
  EmailChoice,
  NotificationPreferenceRecord,
  ProjectRecord,
  UserRecord,
} from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { mayReceive } from './fanout.js';

function choiceJson(
  project: ProjectRecord,
  choice: Pick<NotificationPreferenceRecord, 'email' | 'modified'>,
) {
  return {
    project: { uuid: project.uuid, name: project.name, slug: project.slug },
    email: choice.email,
    modified: iso(choice.modified),
  };
}

/**
 * Each person's e-mail choice per project: off (no row), each regression, or a daily digest. A person chooses for
 * projects they may see (server administrators may choose for anyone); the link in every notification e-mail
 * turns a project's choice off without logging in.
 */
export class NotificationChoicesService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The user's choices other than off, for the projects they may still see. */
  async list(caller: UserCaller, userRef: string): Promise<NotificationChoiceJson[]> {
    return this.ctx.storage.read(async (r) => {
      const user = await requireUser(r, caller, userRef);
      const choices = await r.notificationPreferences.all({ user_id: user.id });
      if (choices.length === 0) return [];
      const projects = new Map(
        (await r.projects.all({ id: choices.map((c) => c.project_id) })).map((p) => [p.id, p]),
      );
      const shown = [];
      for (const choice of choices) {
        const project = projects.get(choice.project_id);
        if (project && (await mayReceive(r, project, user))) shown.push(choiceJson(project, choice));
      }
      return shown.sort((a, b) => a.project.name.localeCompare(b.project.name));
    });
  }

  async set(caller: UserCaller, userRef: string, projectRef: string, email: EmailChoice) {
    return this.ctx.storage.transaction(async (tx) => {
      const user = await requireUser(tx, caller, userRef);
      // the project as the user (not an administrator acting for them) sees it
      const { project } = await requireProject(
        tx,
        { kind: 'user', user, via: 'session' },
        projectRef,
        'view',
      );
      return this.#write(tx, user, project, email);
    });
  }

  /** Turns a project's e-mail off with the token of an e-mail's unsubscribe link. */
  async unsubscribe(token: string) {
    const claims = await this.ctx.tokens.verify(token, 'unsubscribe');
    return this.ctx.storage.transaction(async (tx) => {
      const user = await tx.users.find({ uuid: claims.sub });
      const project = await tx.projects.find({ uuid: claims.project ?? '' });
      if (!user || !project)
        throw new UnauthorizedError('the unsubscribe link names an account or project that is gone');
      return this.#write(tx, user, project, 'off');
    });
  }

  async #write(tx: WriteRepositories, user: UserRecord, project: ProjectRecord, email: EmailChoice) {
    const now = this.ctx.now();
    const key = { user_id: user.id, project_id: project.id };
    const current = await tx.notificationPreferences.find(key);
    if (email === 'off') await tx.notificationPreferences.delete(key);
    else if (current) await tx.notificationPreferences.update(key, { email, modified: now });
    else await tx.notificationPreferences.insert({ ...key, email, created: now, modified: now });
    return choiceJson(project, { email, modified: now });
  }
}
