import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { AlertRecord, AlertStatus, ProjectRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { Direction } from '../storage/tables.js';
import { alertsJson } from './json.js';
import { withMetrics } from './load.js';
import { readProjectData } from '../access/project-data.js';

export interface AlertListOptions {
  readonly status?: AlertStatus | undefined;
  readonly sort: 'status' | 'created' | 'modified';
  readonly direction: Direction;
  readonly page: number;
  readonly perPage: number;
}

/** Alerts of a project: list (active first), view, dismiss or reactivate, dismiss all. */
export class AlertsService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(caller: Caller, projectRef: string, options: AlertListOptions) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const page = await r.alerts.listForProject(project.id, options.status, options);
      return { items: await alertJsons(r, project, page.items), total: page.total };
    });
  }

  async get(caller: Caller, projectRef: string, uuid: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      return (await alertJsons(r, project, [await requireAlert(r, project, uuid)]))[0];
    });
  }

  /** Dismisses or reactivates an alert. A silenced alert belongs to a replaced head and stays silenced. */
  async update(caller: Caller, projectRef: string, uuid: string, status: 'active' | 'dismissed') {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const alert = await requireAlert(tx, project, uuid);
      if (alert.status === 'silenced' && status === 'active') {
        throw new ConflictError(
          'this alert was silenced when its branch got a new head; it cannot be reactivated',
        );
      }
      const modified = this.ctx.now();
      if (alert.status !== status) await tx.alerts.update({ id: alert.id }, { status, modified });
      return (await alertJsons(tx, project, [{ ...alert, status, modified }]))[0];
    });
  }

  /** Dismisses every active alert of the project; returns how many. */
  async dismissAll(caller: Caller, projectRef: string): Promise<{ dismissed: number }> {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const dismissed = await tx.alerts.update(
        { project_id: project.id, status: 'active' },
        { status: 'dismissed', modified: this.ctx.now() },
      );
      return { dismissed };
    });
  }
}

async function requireAlert(r: ReadRepositories, project: ProjectRecord, uuid: string): Promise<AlertRecord> {
  const alert = await r.alerts.find({ uuid: uuid.toLowerCase(), project_id: project.id });
  if (!alert) throw new NotFoundError(`alert "${uuid}" not found`);
  return alert;
}

/** Alerts in their wire form: each with its metric, benchmark, measure, threshold and report. */
export async function alertJsons(
  r: ReadRepositories,
  project: ProjectRecord,
  alerts: readonly AlertRecord[],
) {
  const out = [];
  for (const pair of await withMetrics(r, alerts)) {
    const report = await r.reports.find({ id: pair.alert.report_id });
    if (!report) continue;
    const version = await r.versions.find({ id: report.version_id });
    out.push(...(await alertsJson(r, project, report, version, [pair])));
  }
  return out;
}
