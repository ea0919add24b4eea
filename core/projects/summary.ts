import { OPEN_STATUSES } from '../regressions/lifecycle.js';
import { PROJECT_SUMMARY_DAYS, type projectSummarySchema } from '../schemas/accounts.js';
import type { ProjectRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { z } from 'zod';

const DAY = 86_400_000;

/**
 * The summaries of a page of projects (their cards): one grouped read of every project's reports, then each
 * project's alert and regression counts by status.
 */
export async function projectSummaries(
  r: ReadRepositories,
  projects: readonly ProjectRecord[],
  now: Date,
): Promise<Map<number, z.infer<typeof projectSummarySchema>>> {
  const first =
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (PROJECT_SUMMARY_DAYS - 1) * DAY;
  const activity = await r.reports.activity(
    projects.map((p) => p.id),
    new Date(first),
  );
  const out = new Map<number, z.infer<typeof projectSummarySchema>>();
  for (const project of projects) {
    const { last, days } = activity.get(project.id) ?? { last: null, days: [] };
    const reports = new Array<number>(PROJECT_SUMMARY_DAYS).fill(0);
    for (const { day, reports: count } of days) {
      const index = Math.round((Date.parse(`${day}T00:00:00Z`) - first) / DAY);
      if (index >= 0 && index < PROJECT_SUMMARY_DAYS) reports[index] = count;
    }
    const alerts = await r.alerts.countByStatus({ project_id: project.id });
    const regressions = await r.regressions.countByStatus({ project_id: project.id });
    out.set(project.id, {
      last_report: last?.toISOString() ?? null,
      alerts: { active: alerts.active ?? 0 },
      regressions: { open: OPEN_STATUSES.reduce((sum, s) => sum + (regressions[s] ?? 0), 0) },
      reports,
    });
  }
  return out;
}
