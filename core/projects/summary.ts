import type { z } from 'zod';
import { OPEN_STATUSES } from '../regressions/lifecycle.js';
import { PROJECT_SUMMARY_DAYS, type projectSummarySchema } from '../schemas/accounts.js';
import type { ProjectRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';

const DAY = 86_400_000;

/** The summaries of a page of projects (their cards), from one grouped read of the storage for the page. */
export async function projectSummaries(
  r: ReadRepositories,
  projects: readonly ProjectRecord[],
  now: Date,
): Promise<Map<number, z.infer<typeof projectSummarySchema>>> {
  const first =
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (PROJECT_SUMMARY_DAYS - 1) * DAY;
  const activity = await r.projects.activity(
    projects.map((p) => p.id),
    { since: new Date(first), regressionStatuses: OPEN_STATUSES },
  );
  const out = new Map<number, z.infer<typeof projectSummarySchema>>();
  for (const [id, { last, days, alerts, regressions }] of activity) {
    const reports = new Array<number>(PROJECT_SUMMARY_DAYS).fill(0);
    for (const { day, reports: count } of days) {
      const index = Math.round((Date.parse(`${day}T00:00:00Z`) - first) / DAY);
      if (index >= 0 && index < PROJECT_SUMMARY_DAYS) reports[index] = count;
    }
    out.set(id, {
      last_report: last?.toISOString() ?? null,
      alerts: { active: alerts },
      regressions: { open: regressions },
      reports,
    });
  }
  return out;
}
