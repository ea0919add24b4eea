import { randomUUID } from 'node:crypto';
import type { NotificationRecord, ProjectRecord, ReportRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { webhookEvents } from './events.js';

/** What a notification is about: one of the project's regressions, a report, or a test of one webhook. */
export type NotificationSubject =
  | {
      readonly event: 'regression.created' | 'regression.updated' | 'regression.closed';
      readonly regression_id: number;
    }
  | { readonly event: 'report.created'; readonly report_id: number }
  | { readonly event: 'ping'; readonly webhook_id: number }
  | { readonly event: 'digest'; readonly payload: string };

/**
 * Writes a notification into the outbox, inside the transaction that caused it: it commits with the change, or
 * not at all, and the delivery loop fans it out after the commit. An update of a regression whose last
 * notification is not fanned out yet adds nothing: that one is built from the regression as it is when it is
 * fanned out, so it already says everything (one notification per change people act on, never one per alert).
 */
export async function notify(
  tx: WriteRepositories,
  projectId: number,
  subject: NotificationSubject,
  now: Date,
): Promise<NotificationRecord | undefined> {
  if (subject.event === 'regression.updated') {
    const waiting = await tx.notifications.find({ regression_id: subject.regression_id, fanned: false });
    if (waiting) return undefined;
  }
  return tx.notifications.insert({
    uuid: randomUUID(),
    project_id: projectId,
    event: subject.event,
    regression_id: 'regression_id' in subject ? subject.regression_id : null,
    report_id: 'report_id' in subject ? subject.report_id : null,
    webhook_id: 'webhook_id' in subject ? subject.webhook_id : null,
    payload: 'payload' in subject ? subject.payload : null,
    fanned: false,
    created: now,
  });
}

/**
 * The `report.created` notification of a report, when a webhook of its project wants it: a project without one
 * (most) pays one small read per report.
 */
export async function notifyReport(
  tx: WriteRepositories,
  project: ProjectRecord,
  report: ReportRecord,
  now: Date,
): Promise<boolean> {
  const webhooks = await tx.webhooks.all({ project_id: project.id });
  if (!webhooks.some((webhook) => webhookEvents(webhook).includes('report.created'))) return false;
  await notify(tx, project.id, { event: 'report.created', report_id: report.id }, now);
  return true;
}
