import type { LiveConfig } from '../accounts/tokens.js';
import { projectJson } from '../schemas/accounts.js';
import { reportJson } from '../reports/json.js';
import { loadReportContext } from '../reports/load.js';
import { regressionJsons } from '../regressions/json.js';
import type { NotificationRecord, ProjectRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import { webhookEvents } from './events.js';

/** A page of the console, as an absolute URL. */
export function consoleLink(config: LiveConfig, path: string): string {
  return `${config.current.console.url.replace(/\/+$/, '')}${path}`;
}

/** The console page of a project's tab or item. */
export function projectLink(config: LiveConfig, project: ProjectRecord, tab: string, item?: string): string {
  return consoleLink(config, `/console/projects/${project.slug}/${tab}${item ? `/${item}` : ''}`);
}

/**
 * What a notification tells, apart from the event and delivery: the project and the subject as the API shows
 * them when it is fanned out (a report as its project's list shows it; a regression as `GET .../regressions/{uuid}`
 * does), each with the `console_url` of its page. Undefined when the subject is gone (deleted meanwhile).
 */
export async function buildPayload(
  config: LiveConfig,
  r: ReadRepositories,
  project: ProjectRecord,
  notification: NotificationRecord,
): Promise<Record<string, unknown> | undefined> {
  const organization = await r.organizations.find({ id: project.organization_id });
  const base = { project: projectJson(project, organization ?? { uuid: '' }) };
  if (notification.event === 'report.created') {
    const report = await r.reports.find({ id: notification.report_id ?? -1 });
    if (!report) return undefined;
    const context = await loadReportContext(r, project, report);
    const summary = (await r.reports.summaries([report.id])).get(report.id);
    const counts = {
      results: [...(summary?.iterations ?? [])],
      alerts: summary?.alerts ?? { active: 0, total: 0 },
    };
    const job = await r.jobs.find({ report_id: report.id });
    const json = await reportJson(r, context, counts, false, job?.uuid ?? null);
    return {
      ...base,
      report: { ...json, console_url: projectLink(config, project, 'reports', report.uuid) },
    };
  }
  if (notification.event.startsWith('regression.')) {
    const regression = await r.regressions.find({ id: notification.regression_id ?? -1 });
    if (!regression) return undefined;
    const [json] = await regressionJsons(r, project, [regression]);
    if (!json) return undefined;
    return {
      ...base,
      regression: { ...json, console_url: projectLink(config, project, 'regressions', regression.uuid) },
    };
  }
  if (notification.event === 'ping') {
    const webhook = await r.webhooks.find({ id: notification.webhook_id ?? -1 });
    if (!webhook) return undefined;
    return {
      ...base,
      webhook: { uuid: webhook.uuid, format: webhook.format, events: webhookEvents(webhook) },
      message: 'A test delivery: the webhook works.',
    };
  }
  return undefined;
}
