import type { MailMessage } from '../accounts/mailer.js';
import { CLOSED_STATUSES } from '../regressions/lifecycle.js';
import type { ProjectJson } from '../schemas/accounts.js';
import type { NotificationRecord, WebhookFormat } from '../storage/records.js';
import {
  headline,
  rangeText,
  seriesLines,
  slackPing,
  slackRegression,
  slackReport,
  type RegressionDigest,
  type ReportDigest,
} from './slack.js';

/** A notification's frozen payload, as `buildPayload` made it. */
export interface Payload {
  readonly project: ProjectJson;
  readonly regression?: RegressionDigest & Record<string, unknown>;
  readonly report?: ReportDigest & Record<string, unknown>;
  readonly regressions?: readonly (RegressionDigest & Record<string, unknown>)[];
  readonly since?: string;
  readonly until?: string;
  readonly [key: string]: unknown;
}

export function parsePayload(notification: NotificationRecord): Payload {
  return JSON.parse(notification.payload ?? '{}') as Payload;
}

/**
 * The body a webhook is posted, the same on every attempt: Benchtrack's JSON (`{event, delivery, created,
 * project, <subject>}`) or a Slack message.
 */
export function webhookBody(
  format: WebhookFormat,
  notification: NotificationRecord,
  delivery: string,
  payload: Payload,
): string {
  const { event } = notification;
  if (format === 'json')
    return JSON.stringify({ event, delivery, created: notification.created.toISOString(), ...payload });
  const project = payload.project.name;
  if (payload.regression) return JSON.stringify(slackRegression(event, project, payload.regression));
  if (payload.report) return JSON.stringify(slackReport(project, payload.report));
  return JSON.stringify(slackPing(project));
}

/** What a digest says happened to a regression, by its status now: found, changed (still open) or closed. */
function digestEvent(status: string): string {
  if (status === 'untriaged') return 'regression.created';
  return (CLOSED_STATUSES as readonly string[]).includes(status) ? 'regression.closed' : 'regression.updated';
}

/** The lines of one regression in an e-mail: what, where, each series shown, and its link. */
function regressionText(event: string, project: string, r: RegressionDigest): string {
  return [
    headline(event, project, r),
    ...seriesLines(r).map((line) => `  - ${line}`),
    `  ${r.console_url}`,
  ].join('\n');
}

/**
 * The e-mail of a notification to one person: a new regression, or the digest of a day. Every one says why it
 * came and carries the link that stops such mail for the project.
 */
export function notificationMail(
  notification: NotificationRecord,
  payload: Payload,
  to: { name: string; email: string },
  links: { unsubscribe: string; settings: string },
): MailMessage {
  const project = payload.project.name;
  const footer = (why: string) =>
    `\n\n--\nYou get this e-mail because you chose ${why} for ${project} in Benchtrack.\nStop these e-mails: ${links.unsubscribe}\nAll your choices: ${links.settings}\n`;
  if (notification.event === 'digest') {
    const regressions = payload.regressions ?? [];
    const day = (payload.since ?? '').slice(0, 10);
    return {
      to: to.email,
      subject: `[Benchtrack] ${project}: ${regressions.length} regression${regressions.length === 1 ? '' : 's'} on ${day}`,
      text: `Hello ${to.name},\n\nWhat happened to the regressions of ${project} on ${day} (UTC):\n\n${regressions
        .map((r) => regressionText(digestEvent(r.status), project, r))
        .join('\n\n')}${footer('a daily digest')}`,
      unsubscribe: links.unsubscribe,
    };
  }
  const r = payload.regression as RegressionDigest;
  return {
    to: to.email,
    subject: `[Benchtrack] ${headline(notification.event, project, r)}`,
    link: r.console_url,
    text: `Hello ${to.name},\n\n${regressionText(notification.event, project, r)}\n\nRange: ${rangeText(r)}; status: ${r.status}.${footer('an e-mail for each regression')}`,
    unsubscribe: links.unsubscribe,
  };
}
