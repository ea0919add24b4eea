import { randomUUID } from 'node:crypto';
import type { New, RegressionRecord, RegressionSeriesRecord, RegressionStatus } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { notify } from '../notifications/outbox.js';

/** Statuses of a regression people act on: open ones count, suspected ones do not (the detector may deny them). */
export const OPEN_STATUSES: readonly RegressionStatus[] = ['untriaged', 'acknowledged'];
/** Statuses after which nothing of the change needs doing. */
export const CLOSED_STATUSES: readonly RegressionStatus[] = ['invalid', 'fixed', 'expected'];
/** Statuses under which later alerts of the same change attach to the regression instead of opening another. */
export const ATTACHING_STATUSES: readonly RegressionStatus[] = ['suspected', ...OPEN_STATUSES, 'expected'];

export const isOpen = (status: RegressionStatus) => OPEN_STATUSES.includes(status);

/** Who made a change: a user, or the service itself (`null`). */
export type Actor = number | null;

/**
 * What a change means to whoever follows the regression: it became open (`created`), an open one changed
 * (`updated`), or an open one was closed (`closed`). Changes of suspected regressions mean nothing to them.
 */
export type RegressionEventKind = 'created' | 'updated' | 'closed';

export interface RegressionChange {
  readonly regression: RegressionRecord;
  readonly event: RegressionEventKind | undefined;
}

function eventOf(
  before: RegressionStatus | undefined,
  after: RegressionStatus,
): RegressionEventKind | undefined {
  const wasOpen = before !== undefined && isOpen(before);
  if (isOpen(after)) return wasOpen ? 'updated' : 'created';
  return wasOpen ? 'closed' : undefined;
}

/** A regression a report opened or joined, or whose change its alerts continue. */
export interface TouchedRegression extends RegressionChange {
  /** `opened`: the report's alerts opened it; `joined`: a series of it joined; `attached`: alerts of a known change. */
  readonly how: 'opened' | 'joined' | 'attached';
}

/** A series row as it joins a regression. */
export type SeriesValues = Omit<RegressionSeriesRecord, 'regression_id' | 'created' | 'modified'>;

/**
 * What a change means to followers, told to them: the notification goes into the outbox in the transaction of the
 * change, so they hear of it exactly when it commits.
 */
async function told(tx: WriteRepositories, change: RegressionChange, now: Date): Promise<RegressionChange> {
  if (change.event)
    await notify(
      tx,
      change.regression.project_id,
      { event: `regression.${change.event}`, regression_id: change.regression.id },
      now,
    );
  return change;
}

/**
 * Opens a regression with its first series and the alerts that raised it, and records the event. Every change of
 * a regression goes through this module, in the transaction that caused it.
 */
export async function openRegression(
  tx: WriteRepositories,
  values: Omit<New<RegressionRecord>, 'uuid' | 'created' | 'modified' | 'note' | 'issue_url' | 'assignee_id'>,
  series: readonly SeriesValues[],
  alerts: readonly { alert_id: number; series_id: number }[],
  now: Date,
): Promise<RegressionChange> {
  const regression = await tx.regressions.insert({
    ...values,
    uuid: randomUUID(),
    note: null,
    issue_url: null,
    assignee_id: null,
    created: now,
    modified: now,
  });
  for (const s of series) await addSeries(tx, regression, s, now);
  for (const a of alerts) await attachAlert(tx, regression, a.alert_id, a.series_id);
  await tx.regressionEvents.insert({
    regression_id: regression.id,
    project_id: regression.project_id,
    user_id: null,
    status: regression.status,
    previous_status: null,
    changes: JSON.stringify({ series_added: series.map((s) => s.series_id) }),
    reason: values.reason,
    created: now,
  });
  return told(tx, { regression, event: eventOf(undefined, regression.status) }, now);
}

/** What a change may set on a regression. */
export type RegressionPatch = Partial<
  Pick<
    RegressionRecord,
    | 'status'
    | 'note'
    | 'issue_url'
    | 'assignee_id'
    | 'reason'
    | 'first_bad_version_id'
    | 'last_good_version_id'
    | 'fixed_version_id'
  >
>;

/**
 * Changes a regression and records what changed (with the details given, such as series added or removed) in its
 * history. A person's status change clears the service's reason. Answers the regression as changed, and what the
 * change means to followers.
 */
export async function changeRegression(
  tx: WriteRepositories,
  regression: RegressionRecord,
  patch: RegressionPatch,
  actor: Actor,
  now: Date,
  details: Record<string, unknown> = {},
): Promise<RegressionChange> {
  const changed: { -readonly [K in keyof RegressionPatch]: RegressionPatch[K] } = Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => {
      const current = regression[key as keyof RegressionRecord];
      return value !== undefined && value !== current;
    }),
  );
  if (patch.status !== undefined && patch.status !== regression.status && actor !== null)
    changed.reason = null;
  if (Object.keys(changed).length === 0 && Object.keys(details).length === 0)
    return { regression, event: undefined };
  const next: RegressionRecord = { ...regression, ...changed, modified: now };
  await tx.regressions.update({ id: regression.id }, { ...changed, modified: now });
  const { status: _status, reason: _reason, ...fields } = changed;
  const changes = { ...fields, ...details };
  await tx.regressionEvents.insert({
    regression_id: regression.id,
    project_id: regression.project_id,
    user_id: actor,
    status: next.status,
    previous_status: regression.status,
    changes: Object.keys(changes).length > 0 ? JSON.stringify(changes) : null,
    reason: next.reason,
    created: now,
  });
  // followers hear of a status, series or range change, not of a note or an assignee
  const notable =
    RANGE.some((key) => key in changed) || Object.keys(details).some((key) => key.startsWith('series'));
  const event =
    next.status !== regression.status
      ? eventOf(regression.status, next.status)
      : isOpen(next.status) && notable
        ? 'updated'
        : undefined;
  return told(tx, { regression: next, event }, now);
}

const RANGE = ['first_bad_version_id', 'last_good_version_id', 'fixed_version_id'] as const;

/** Adds a series to a regression (its alerts are attached with {@link attachAlert}). */
export async function addSeries(
  tx: WriteRepositories,
  regression: RegressionRecord,
  series: SeriesValues,
  now: Date,
): Promise<void> {
  await tx.regressionSeries.insert({
    ...series,
    regression_id: regression.id,
    created: now,
    modified: now,
  });
}

/** Removes a series from a regression with its alerts (which may then open or join another). */
export async function removeSeries(
  tx: WriteRepositories,
  regression: RegressionRecord,
  seriesId: number,
): Promise<void> {
  await tx.regressionAlerts.delete({ regression_id: regression.id, series_id: seriesId });
  await tx.regressionSeries.delete({ regression_id: regression.id, series_id: seriesId });
}

export async function attachAlert(
  tx: WriteRepositories,
  regression: RegressionRecord,
  alertId: number,
  seriesId: number,
): Promise<void> {
  await tx.regressionAlerts.insert({
    alert_id: alertId,
    regression_id: regression.id,
    project_id: regression.project_id,
    series_id: seriesId,
  });
}
