import type { Boundary } from '../boundaries/boundary-columns.js';
import type {
  AlertRecord,
  BranchRecord,
  DimensionRecord,
  HeadRecord,
  MeasureRecord,
  OrganizationRecord,
  ProjectRecord,
  ReportRecord,
  TestbedRecord,
  UserRecord,
  VersionRecord,
} from '../storage/records.js';
import type { Tested } from './boundary-job.js';
import type { TouchedRegression } from '../regressions/lifecycle.js';

/** One stored metric with everything the response shows about it. */
export interface IngestedMetric {
  readonly id: bigint;
  readonly uuid: string;
  readonly iteration: number;
  readonly benchmark: DimensionRecord;
  readonly measure: MeasureRecord;
  readonly value: number;
  readonly lower_value: number | null;
  readonly upper_value: number | null;
  readonly tested: Tested | null;
  readonly boundary: Boundary | null;
}

export interface Ingested {
  readonly report: ReportRecord;
  readonly project: ProjectRecord;
  readonly user: UserRecord | null;
  readonly branch: BranchRecord;
  readonly head: HeadRecord;
  readonly version: VersionRecord;
  readonly testbed: TestbedRecord;
  readonly metrics: readonly IngestedMetric[];
  readonly alerts: readonly { alert: AlertRecord; metric: IngestedMetric }[];
  /** The regressions the report's alerts opened, joined or attached to (absent for a report loaded from storage). */
  readonly regressions?: readonly TouchedRegression[];
  /** The series the report wrote to (absent for a report loaded from storage). */
  readonly series?: readonly number[];
  /** The series of its alerts (absent for a report loaded from storage). */
  readonly alertedSeries?: readonly number[];
  /**
   * Records ingest holds as its transaction stored them, besides those above, so its answer needs no read of
   * them (core/reports/held.ts); absent for a report loaded from storage.
   */
  readonly held?: {
    readonly organization: OrganizationRecord | undefined;
    /** The head's newest version, when ingest knows it (it created it). */
    readonly latestVersion: VersionRecord | undefined;
  };
}
