import type {
  RegressionKind,
  RegressionRecord,
  RegressionSeriesRecord,
  SeriesRecord,
} from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import type { SeriesChange, SeriesDetection } from './detect.js';
import {
  changeRegression,
  isOpen,
  openRegression,
  RegressionWriter,
  type RegressionChange,
} from './lifecycle.js';

/** A change point belongs to a regression when its version is within this many of the first bad version. */
export const MATCH_MARGIN = 2;
/**
 * Points at or after the first bad version that a suspected series needs before it is denied: by then a step of
 * twice the noise, the smallest a t-test threshold at 0.99 alerts on with some regularity, has the strength
 * ({@link MIN_STRENGTH}) to be confirmed.
 */
export const DENY_AFTER = 20;
/** Points at or after a change point before the detector alone opens a regression for it. */
export const OPEN_AFTER = 8;
/**
 * How strong a change point must be (its {@link SeriesChange.strength}, a robust t) to confirm or open a regression.
 * Every report re-tests the newest hundred reports of its series, so each position is tested up to a hundred
 * times, and a false page costs more than a late one: a normal t of 5 has a chance of 6e-7 by noise alone. A step
 * of twice the noise reaches it with about 20 points after it and 40 before.
 */
export const MIN_STRENGTH = 5;

/** What the analysis knows of one series besides its detection: its key and which way is worse. */
export interface AnalyzedSeries extends SeriesDetection {
  readonly series: SeriesRecord;
  readonly kindOf: (up: boolean) => RegressionKind;
}

interface Known {
  regression: RegressionRecord;
  firstBad: number;
  /** The number of the version that fixed it, when the service found it went back. */
  fixedAt?: number;
  readonly series: Map<number, RegressionSeriesRecord>;
}

/** Where a branch and testbed's regressions are. */
export interface AnalysisTarget {
  readonly projectId: number;
  readonly branchId: number;
  readonly headId: number;
  readonly testbedId: number;
}

/** `|x - a| <= |a - b| / 2`: `x` is nearer the level `a` than half the step from `b`. */
export function nearLevel(x: number, level: number, other: number): boolean {
  return Math.abs(x - level) <= Math.abs(level - other) / 2;
}

/**
 * Whether `x` is still at the level a change from `before` to `after` reached: past half the step, and short of
 * a second step as large. A value that far again is a further change of its own.
 */
export function atNewLevel(x: number, before: number, after: number): boolean {
  const step = after - before;
  if (step === 0) return x === after;
  const position = (x - before) / step;
  return position >= 0.5 && position < 2;
}

/**
 * Applies what the detector found in a branch and testbed's series to their regressions, in the caller's
 * transaction (which holds the branch): suspected series it finds are confirmed (their regression becomes
 * untriaged), those it still does not find after {@link DENY_AFTER} points are denied (a suspected regression
 * with none left becomes invalid), open regressions whose series all came back to their old level become fixed,
 * and changes no regression holds open one (or join the one at the same version). Answers every change made.
 */
export async function applyDetections(
  tx: WriteRepositories,
  target: AnalysisTarget,
  analyzed: readonly AnalyzedSeries[],
  now: Date,
): Promise<RegressionChange[]> {
  const known = await loadKnown(tx, target, analyzed);
  const w = new RegressionWriter(tx, now);
  const changes: RegressionChange[] = [];
  const version = versionIds(tx, target.headId);
  const claimed = new Set<SeriesChange>();
  const record: Record = (change, at) => {
    at.regression = change.regression;
    changes.push(change);
  };
  const strong = analyzed.map((a) => ({
    ...a,
    changes: a.changes.filter((c) => Math.abs(c.strength) >= MIN_STRENGTH),
  }));
  const bySeries = new Map(strong.map((a) => [a.series.id, a]));
  const owners = ownersOf(known, strong);

  for (const at of known) {
    // closed regressions keep what they hold: people (or the service) decided
    if (!waiting(at)) continue;
    const confirmed: [RegressionSeriesRecord, SeriesChange][] = [];
    const denied: RegressionSeriesRecord[] = [];
    for (const member of at.series.values()) {
      const a = bySeries.get(member.series_id);
      if (!a) continue;
      const match = a.changes.find((c) => !claimed.has(c) && owners.get(c) === at);
      if (match) {
        claimed.add(match);
        if (member.state === 'suspected') confirmed.push([member, match]);
      } else if (member.state === 'suspected') {
        const after = a.versions.filter((v) => v >= at.firstBad).length;
        if (after >= DENY_AFTER && a.versions.some((v) => v < at.firstBad)) denied.push(member);
      }
    }
    for (const [member, match] of confirmed) await confirm(w, known, at, member, match, version, record);
    if (at.series.size === 0) continue;
    const allDenied = denied.length === at.series.size;
    if (at.regression.status === 'suspected' && allDenied) {
      // denied whole, the regression keeps its series as the evidence it was raised on
      const reason = `the change-point detector found no change at v${at.firstBad} in ${DENY_AFTER} or more reports from it on`;
      record(changeRegression(w, at.regression, { status: 'invalid', reason }, null), at);
    } else if (denied.length > 0 && at.regression.status !== 'suspected') {
      for (const member of denied) {
        w.removeSeries(at.regression, member.series_id);
        at.series.delete(member.series_id);
      }
      record(
        changeRegression(w, at.regression, {}, null, {
          series_removed: denied.map((m) => m.series_id),
          series_removed_reason: 'the change-point detector found no change in them',
        }),
        at,
      );
    }
  }

  // a suspected regression whose every series moved to the change they share is gone
  for (let i = known.length - 1; i >= 0; i--) if (known[i]!.series.size === 0) known.splice(i, 1);
  await markFixed(w, known, strong, claimed, version, record);
  for (const a of strong) {
    for (const c of a.changes) {
      if (claimed.has(c) || c.pointsAfter < OPEN_AFTER || c.index === 0) continue;
      const kind = a.kindOf(c.after > c.before);
      const covered = known.some(
        (at) =>
          at.series.has(a.series.id) &&
          ((at.regression.kind === kind &&
            Math.abs(at.firstBad - c.version) <= MATCH_MARGIN &&
            !(at.regression.status === 'invalid' && at.regression.reason !== null)) ||
            // the way back of a regression the service found fixed
            (at.regression.kind !== kind &&
              at.fixedAt !== undefined &&
              Math.abs(at.fixedAt - c.version) <= MATCH_MARGIN)),
      );
      if (covered) continue;
      await openOrJoin(w, target, known, a, c, kind, version, changes);
    }
  }
  await w.flush();
  return changes;
}

/** How many versions a change point is from a regression's first bad version. */
const distance = (at: Known, c: SeriesChange) => Math.abs(c.version - at.firstBad);
/** Suspected or open: a regression later changes may still confirm, join or move into. */
const waiting = (at: Known) => at.regression.status === 'suspected' || isOpen(at.regression.status);
/** Among regressions as near to a change, an open one (already confirmed) before a suspected one. */
const nearer = (a: Known, b: Known, c: SeriesChange) =>
  distance(a, c) - distance(b, c) ||
  Number(a.regression.status === 'suspected') - Number(b.regression.status === 'suspected');

/**
 * Which regression each change point confirms: of those holding its series with its kind and a first bad version
 * within {@link MATCH_MARGIN}, the nearest. A series that alerted on noise a report before a real step sits in
 * two regressions; the step belongs to the one at its version.
 */
function ownersOf(known: readonly Known[], analyzed: readonly AnalyzedSeries[]): Map<SeriesChange, Known> {
  const owners = new Map<SeriesChange, Known>();
  for (const a of analyzed)
    for (const c of a.changes) {
      const kind = a.kindOf(c.after > c.before);
      let best: Known | undefined;
      for (const at of known)
        if (
          waiting(at) &&
          at.regression.kind === kind &&
          at.series.has(a.series.id) &&
          distance(at, c) <= MATCH_MARGIN &&
          (!best || nearer(at, best, c) < 0)
        )
          best = at;
      if (best) owners.set(c, best);
    }
  return owners;
}

/** The regressions of the target's head that hold any analyzed series, with their series and first bad version. */
async function loadKnown(
  tx: WriteRepositories,
  target: AnalysisTarget,
  analyzed: readonly AnalyzedSeries[],
): Promise<Known[]> {
  const regressions = await tx.regressions.all({
    project_id: target.projectId,
    branch_id: target.branchId,
    head_id: target.headId,
    testbed_id: target.testbedId,
  });
  if (regressions.length === 0) return [];
  const ids = regressions.map((r) => r.id);
  const series = await tx.regressionSeries.all({ regression_id: ids });
  const versionIds = regressions.flatMap((r) =>
    r.fixed_version_id === null ? [r.first_bad_version_id] : [r.first_bad_version_id, r.fixed_version_id],
  );
  const versions = new Map(
    (await tx.versions.all({ id: [...new Set(versionIds)] })).map((v) => [v.id, v.number]),
  );
  const wanted = new Set(analyzed.map((a) => a.series.id));
  return regressions
    .map((regression) => ({
      regression,
      firstBad: versions.get(regression.first_bad_version_id) ?? 0,
      ...(regression.fixed_version_id !== null ? { fixedAt: versions.get(regression.fixed_version_id) } : {}),
      series: new Map(
        series.filter((s) => s.regression_id === regression.id).map((s) => [s.series_id, s] as const),
      ),
    }))
    .filter((at) => [...at.series.keys()].some((id) => wanted.has(id)) || isOpen(at.regression.status));
}

type VersionId = (number: number) => Promise<number | undefined>;

/** `fn` called once per argument (for one analysis or grouping). */
export function memoized<T>(fn: (key: number) => Promise<T>): (key: number) => Promise<T> {
  const found = new Map<number, Promise<T>>();
  return (key) => {
    let value = found.get(key);
    if (!value) found.set(key, (value = fn(key)));
    return value;
  };
}

/** The id of the head's version numbered `number` (memoized for one analysis). */
function versionIds(tx: WriteRepositories, headId: number): VersionId {
  return memoized(async (number) => {
    const [candidate] = await tx.heads.versionIds(headId, number, 1);
    if (candidate === undefined) return undefined;
    const v = await tx.versions.find({ id: candidate });
    return v?.number === number ? candidate : undefined;
  });
}

/** The version just before `number` on the head (null at its first). */
export async function lastGoodOf(
  tx: WriteRepositories,
  headId: number,
  number: number,
): Promise<number | null> {
  const [id] = await tx.heads.versionIds(headId, number - 1, 1);
  return id ?? null;
}

type Record = (change: RegressionChange, at: Known) => void;

async function confirm(
  w: RegressionWriter,
  known: readonly Known[],
  at: Known,
  member: RegressionSeriesRecord,
  change: SeriesChange,
  version: VersionId,
  record: Record,
) {
  const confirmed = {
    state: 'confirmed' as const,
    before_value: change.before,
    after_value: change.after,
    p_value: change.pValue,
  };
  if (at.regression.status === 'suspected') {
    // A series whose threshold alerted a few reports late raised a suspected regression of its own; when the
    // detector places its change nearer another regression of the kind (within one version), it is that change,
    // and the series moves there so that one commit stays one item to triage.
    let into: Known | undefined;
    for (const other of known)
      if (
        other !== at &&
        other.series.size > 0 &&
        waiting(other) &&
        other.regression.kind === at.regression.kind &&
        distance(other, change) <= 1 &&
        nearer(other, at, change) < 0 &&
        !other.series.has(member.series_id) &&
        (!into || nearer(other, into, change) < 0)
      )
        into = other;
    if (into)
      return moveSeries(w, at, into, { ...member, ...confirmed, modified: w.now }, change, version, record);
  }
  const { regression_id: _id, created: _created, modified: _modified, ...values } = member;
  w.addSeries(at.regression, { ...values, ...confirmed });
  at.series.set(member.series_id, { ...member, ...confirmed, modified: w.now });
  if (at.regression.status !== 'suspected') return;
  record(
    changeRegression(
      w,
      at.regression,
      {
        status: 'untriaged',
        reason: 'confirmed by the change-point detector',
        ...(await placed(w.tx, at, change, version)),
      },
      null,
    ),
    at,
  );
}

/**
 * The range of a regression its first confirmed change places: the detector places the change; the alerts only saw
 * where it first crossed a limit. Updates `at.firstBad`.
 */
async function placed(tx: WriteRepositories, at: Known, change: SeriesChange, version: VersionId) {
  if (change.version === at.firstBad) return {};
  const firstBad = await version(change.version);
  if (firstBad === undefined) return {};
  at.firstBad = change.version;
  return {
    first_bad_version_id: firstBad,
    last_good_version_id: await lastGoodOf(tx, at.regression.head_id, change.version),
  };
}

/**
 * Moves a confirmed series of a suspected regression, with its alerts, to the regression of the same change
 * (which becomes untriaged if it was suspected). A suspected regression left without series is deleted with its
 * history: it was never open, so nobody was told of it.
 */
async function moveSeries(
  w: RegressionWriter,
  from: Known,
  into: Known,
  member: RegressionSeriesRecord,
  change: SeriesChange,
  version: VersionId,
  record: Record,
) {
  const { regression_id: _from, created: _created, modified: _modified, ...values } = member;
  w.removeSeries(from.regression, member.series_id, into.regression);
  w.addSeries(into.regression, values);
  from.series.delete(member.series_id);
  into.series.set(member.series_id, {
    ...member,
    regression_id: into.regression.id,
    created: w.now,
    modified: w.now,
  });
  const confirming = into.regression.status === 'suspected';
  record(
    changeRegression(
      w,
      into.regression,
      confirming
        ? {
            status: 'untriaged',
            reason: 'confirmed by the change-point detector',
            ...(await placed(w.tx, into, change, version)),
          }
        : {},
      null,
      { series_added: [member.series_id] },
    ),
    into,
  );
  if (from.series.size > 0) {
    record(
      changeRegression(w, from.regression, {}, null, {
        series_removed: [member.series_id],
        series_removed_reason: `the same change as regression ${into.regression.uuid}`,
      }),
      from,
    );
    return;
  }
  await w.delete(from.regression);
}

/** Open regressions whose every confirmed series came back to its old level are fixed by the version that did it. */
async function markFixed(
  w: RegressionWriter,
  known: readonly Known[],
  analyzed: readonly AnalyzedSeries[],
  claimed: Set<SeriesChange>,
  version: VersionId,
  record: Record,
) {
  const bySeries = new Map(analyzed.map((a) => [a.series.id, a]));
  for (const at of known) {
    if (!isOpen(at.regression.status)) continue;
    const confirmed = [...at.series.values()].filter((s) => s.state === 'confirmed');
    if (confirmed.length === 0) continue;
    const reverts: SeriesChange[] = [];
    for (const s of confirmed) {
      const a = bySeries.get(s.series_id);
      const revert = a?.changes.find(
        (c) =>
          c.version > at.firstBad &&
          a.kindOf(c.after > c.before) !== at.regression.kind &&
          nearLevel(c.after, s.before_value, s.after_value),
      );
      if (!revert) break;
      reverts.push(revert);
    }
    if (reverts.length < confirmed.length) continue;
    for (const c of reverts) claimed.add(c);
    const fixedAt = Math.max(...reverts.map((c) => c.version));
    const fixed = await version(fixedAt);
    at.fixedAt = fixedAt;
    record(
      changeRegression(
        w,
        at.regression,
        {
          status: 'fixed',
          fixed_version_id: fixed ?? null,
          reason: `back to the old level from v${fixedAt}`,
        },
        null,
      ),
      at,
    );
  }
}

/** A change point no regression holds: joins the regression at its version (within one), or opens one. */
async function openOrJoin(
  w: RegressionWriter,
  target: AnalysisTarget,
  known: Known[],
  a: AnalyzedSeries,
  c: SeriesChange,
  kind: RegressionKind,
  version: VersionId,
  changes: RegressionChange[],
) {
  const values = {
    project_id: target.projectId,
    series_id: a.series.id,
    benchmark_id: a.series.benchmark_id,
    measure_id: a.series.measure_id,
    state: 'confirmed' as const,
    before_value: c.before,
    after_value: c.after,
    p_value: c.pValue,
  };
  const join = known.find(
    (at) =>
      at.regression.kind === kind &&
      waiting(at) &&
      Math.abs(at.firstBad - c.version) <= 1 &&
      !at.series.has(a.series.id),
  );
  if (join) {
    w.addSeries(join.regression, values);
    join.series.set(a.series.id, {
      ...values,
      regression_id: join.regression.id,
      created: w.now,
      modified: w.now,
    });
    const change = changeRegression(
      w,
      join.regression,
      join.regression.status === 'suspected'
        ? { status: 'untriaged', reason: 'confirmed by the change-point detector' }
        : {},
      null,
      { series_added: [a.series.id] },
    );
    join.regression = change.regression;
    changes.push(change);
    return;
  }
  const firstBad = await version(c.version);
  if (firstBad === undefined) return;
  const opened = await openRegression(
    w,
    {
      project_id: target.projectId,
      branch_id: target.branchId,
      head_id: target.headId,
      testbed_id: target.testbedId,
      kind,
      status: 'untriaged',
      first_bad_version_id: firstBad,
      last_good_version_id: await lastGoodOf(w.tx, target.headId, c.version),
      fixed_version_id: null,
      reason: 'found by the change-point detector',
    },
    [values],
    [],
  );
  known.push({
    regression: opened.regression,
    firstBad: c.version,
    series: new Map([
      [a.series.id, { ...values, regression_id: opened.regression.id, created: w.now, modified: w.now }],
    ]),
  });
  changes.push(opened);
}
