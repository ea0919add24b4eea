import { randomUUID } from 'node:crypto';
import type {
  New,
  RegressionAlertRecord,
  RegressionRecord,
  RegressionSeriesRecord,
  RegressionStatus,
} from '../storage/records.js';
import type { RegressionWrites, WriteRepositories } from '../storage/storage.js';
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
 * The writes of one grouping of a report's alerts, one analysis or one person's change, in its transaction: a
 * regression is inserted at once (what follows needs its id) and deleted at once; its patches, series, alerts,
 * history and notifications are collected and written by {@link flush} set-based, each regression patched once,
 * so a report with a hundred alerts costs a few statements, not a few per alert.
 */
export class RegressionWriter {
  readonly #series = new Map<string, RegressionWrites['series'][number]>();
  /** Series leaving regressions, by the regression they leave and the one their alerts move to (or none). */
  readonly #detached = new Map<string, { from: number; into: number | null; series: number[] }>();
  #alerts: RegressionAlertRecord[] = [];
  #events: RegressionWrites['events'][number][] = [];
  readonly #patches = new Map<number, RegressionPatch>();
  /** Changes with an event, in order: their notifications. */
  #told: { readonly regression: RegressionRecord; readonly event: RegressionEventKind }[] = [];

  constructor(
    readonly tx: WriteRepositories,
    readonly now: Date,
  ) {}

  patch(regression: RegressionRecord, patch: RegressionPatch): void {
    this.#patches.set(regression.id, { ...this.#patches.get(regression.id), ...patch });
  }

  /** Adds a series to a regression, or sets its state and values where the regression holds it already. */
  addSeries(regression: RegressionRecord, series: SeriesValues): void {
    this.#series.set(`${regression.id}:${series.series_id}`, { ...series, regression_id: regression.id });
  }

  attachAlert(regression: RegressionRecord, alertId: number, seriesId: number): void {
    this.#alerts.push({
      alert_id: alertId,
      regression_id: regression.id,
      project_id: regression.project_id,
      series_id: seriesId,
    });
  }

  /** Removes a series from a regression; its alerts move to `into`, or go with it (and may open or join another). */
  removeSeries(regression: RegressionRecord, seriesId: number, into: RegressionRecord | null = null): void {
    this.#series.delete(`${regression.id}:${seriesId}`);
    this.#alerts = this.#alerts.flatMap((a) =>
      a.regression_id !== regression.id || a.series_id !== seriesId
        ? [a]
        : into
          ? [{ ...a, regression_id: into.id }]
          : [],
    );
    const key = `${regression.id}:${into?.id}`;
    const detached = this.#detached.get(key) ?? { from: regression.id, into: into?.id ?? null, series: [] };
    this.#detached.set(key, { ...detached, series: [...detached.series, seriesId] });
  }

  event(event: RegressionWrites['events'][number]): void {
    this.#events.push(event);
  }

  told(change: RegressionChange): RegressionChange {
    if (change.event) this.#told.push({ regression: change.regression, event: change.event });
    return change;
  }

  /** Deletes a regression with its history, and forgets what was collected for it. */
  async delete(regression: RegressionRecord): Promise<void> {
    const other = (x: { regression_id: number }) => x.regression_id !== regression.id;
    for (const [key, s] of this.#series) if (!other(s)) this.#series.delete(key);
    this.#alerts = this.#alerts.filter(other);
    this.#events = this.#events.filter(other);
    this.#told = this.#told.filter((c) => c.regression.id !== regression.id);
    this.#patches.delete(regression.id);
    await this.tx.regressionEvents.delete({ regression_id: regression.id });
    await this.tx.regressions.delete({ id: regression.id });
  }

  /**
   * Writes what was collected. Followers hear of each change as they would one by one: an update of a regression
   * whose notification is not fanned out yet adds none, and one written here is not fanned out yet.
   */
  async flush(): Promise<void> {
    const { tx, now } = this;
    for (const [id, patch] of this.#patches) await tx.regressions.update({ id }, { ...patch, modified: now });
    // first, so that a series may leave a regression and join it again
    for (const { from, into, series } of this.#detached.values()) {
      const where = { regression_id: from, series_id: series };
      if (into === null) await tx.regressionAlerts.delete(where);
      else await tx.regressionAlerts.update(where, { regression_id: into });
      await tx.regressionSeries.delete(where);
    }
    await tx.regressions.write({
      now,
      series: [...this.#series.values()],
      alerts: this.#alerts,
      events: this.#events,
    });
    const notified = new Set<number>();
    for (const { regression, event } of this.#told) {
      if (event === 'updated' && notified.has(regression.id)) continue;
      notified.add(regression.id);
      await notify(
        tx,
        regression.project_id,
        { event: `regression.${event}`, regression_id: regression.id },
        now,
      );
    }
    this.#patches.clear();
    this.#series.clear();
    this.#detached.clear();
    this.#alerts = [];
    this.#events = [];
    this.#told = [];
  }
}

/**
 * Opens a regression with its first series and the alerts that raised it, and records the event. Every change of
 * a regression goes through this module, in the transaction that caused it.
 */
export async function openRegression(
  w: RegressionWriter,
  values: Omit<New<RegressionRecord>, 'uuid' | 'created' | 'modified' | 'note' | 'issue_url' | 'assignee_id'>,
  series: readonly SeriesValues[],
  alerts: readonly { alert_id: number; series_id: number }[],
): Promise<RegressionChange> {
  const regression = await w.tx.regressions.insert({
    ...values,
    uuid: randomUUID(),
    note: null,
    issue_url: null,
    assignee_id: null,
    created: w.now,
    modified: w.now,
  });
  for (const s of series) w.addSeries(regression, s);
  for (const a of alerts) w.attachAlert(regression, a.alert_id, a.series_id);
  w.event({
    regression_id: regression.id,
    project_id: regression.project_id,
    user_id: null,
    status: regression.status,
    previous_status: null,
    changes: JSON.stringify({ series_added: series.map((s) => s.series_id) }),
    reason: values.reason,
  });
  return w.told({ regression, event: eventOf(undefined, regression.status) });
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
export function changeRegression(
  w: RegressionWriter,
  regression: RegressionRecord,
  patch: RegressionPatch,
  actor: Actor,
  details: Record<string, unknown> = {},
): RegressionChange {
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
  const next: RegressionRecord = { ...regression, ...changed, modified: w.now };
  w.patch(regression, changed);
  const { status: _status, reason: _reason, ...fields } = changed;
  const changes = { ...fields, ...details };
  w.event({
    regression_id: regression.id,
    project_id: regression.project_id,
    user_id: actor,
    status: next.status,
    previous_status: regression.status,
    changes: Object.keys(changes).length > 0 ? JSON.stringify(changes) : null,
    reason: next.reason,
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
  return w.told({ regression: next, event });
}

const RANGE = ['first_bad_version_id', 'last_good_version_id', 'fixed_version_id'] as const;
