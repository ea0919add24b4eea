import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { AlertRecord, AlertStatus, ProjectRecord } from '../storage/records.js';
import type { AlertFilter, ReadRepositories } from '../storage/storage.js';
import type { ThresholdJson } from '../schemas/dimensions.js';
import type { AlertCountsJson, AlertScopeQuery } from '../schemas/reports.js';
import { dimensionIds } from '../dimensions/name-id.js';
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

  async list(caller: Caller, projectRef: string, scope: AlertScopeQuery, options: AlertListOptions) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const filter = { ...(await alertFilter(r, project, scope)), status: options.status };
      const page = await r.alerts.listForProject(filter, options);
      return { items: await alertJsons(r, project, page.items), total: page.total };
    });
  }

  /** How many alerts each status has under the list's dimension filters. */
  async counts(caller: Caller, projectRef: string, scope: AlertScopeQuery): Promise<AlertCountsJson> {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const found = await r.alerts.countByStatus(await alertFilter(r, project, scope));
      return { active: found.active ?? 0, dismissed: found.dismissed ?? 0, silenced: found.silenced ?? 0 };
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

  /** Dismisses every active alert of the project the dimension filters match (all without any); returns how many. */
  async dismissAll(
    caller: Caller,
    projectRef: string,
    scope: AlertScopeQuery,
  ): Promise<{ dismissed: number }> {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const filter = await alertFilter(tx, project, scope);
      const ids = await tx.alerts.idsMatching({ ...filter, status: 'active' });
      if (ids.length === 0) return { dismissed: 0 };
      const dismissed = await tx.alerts.update(
        { id: ids, status: 'active' },
        { status: 'dismissed', modified: this.ctx.now() },
      );
      return { dismissed };
    });
  }
}

/** The storage filter of a list query's dimensions (UUID, slug or name each); 404 naming the one not found. */
async function alertFilter(
  r: ReadRepositories,
  project: ProjectRecord,
  scope: AlertScopeQuery,
): Promise<AlertFilter> {
  return { project_id: project.id, ...(await dimensionIds(r, project.id, scope)) };
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
  const pairs = await withMetrics(r, alerts);
  if (pairs.length === 0) return [];
  // reports, versions and thresholds read once for the page, not once per alert
  const reports = new Map(
    (await r.reports.all({ id: [...new Set(pairs.map((p) => p.alert.report_id))] })).map((x) => [x.id, x]),
  );
  const versions = new Map(
    (await r.versions.all({ id: [...new Set([...reports.values()].map((x) => x.version_id))] })).map((v) => [
      v.id,
      v,
    ]),
  );
  const thresholds = new Map<number, ThresholdJson>();
  const out = [];
  for (const pair of pairs) {
    const report = reports.get(pair.alert.report_id);
    if (!report) continue;
    out.push(...(await alertsJson(r, project, report, versions.get(report.version_id), [pair], thresholds)));
  }
  return out;
}
