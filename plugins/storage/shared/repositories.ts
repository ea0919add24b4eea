import type {
  LocksWriter,
  MetricsReader,
  MetricsWriter,
  ReadRepositories,
  ReportRecord,
  WriteRepositories,
} from '../../../kit/index.js';
import { ACCOUNT_TABLES, accountReaders, accountWriters } from './accounts.js';
import { DIMENSION_TABLES, dimensionReaders, dimensionWriters } from './dimensions.js';
import { metaReader, metaWriter } from './meta.js';
import { NOTIFICATION_TABLES, notificationReaders, notificationWriters } from './notifications.js';
import { perf, perfCount, perfLines } from './perf.js';
import { plusReaders, plusWriters } from './plus.js';
import {
  deleteReport,
  metricRows,
  namedReader,
  namedWriter,
  plots,
  reports,
  reportsReader,
} from './reports.js';
import { REGRESSION_TABLES, regressionReaders, regressionWriters } from './regressions.js';
import { RUNNER_TABLES, runnerReaders, runnerWriters } from './runners.js';
import type { Db } from './sql.js';
import { plainTables, tableWriter } from './table.js';

/** What each engine does its own way: its locks, its history read and its bulk write of metrics. */
export interface EngineParts {
  readonly locks: LocksWriter;
  readonly history: MetricsReader['history'];
  readonly append: MetricsWriter['append'];
}

/** The repositories that are a table and nothing more. */
const PLAIN = {
  ...ACCOUNT_TABLES,
  ...DIMENSION_TABLES,
  ...RUNNER_TABLES,
  ...REGRESSION_TABLES,
  ...NOTIFICATION_TABLES,
  plots,
};
type Plain = keyof typeof PLAIN;

function metricsReader(db: Db, history: MetricsReader['history']): MetricsReader {
  return {
    ...metricRows(db),
    history,
    perf: (request) => perf(db, request),
    perfLines: (request) => perfLines(db, request),
    perfCount: (request) => perfCount(db, request),
  };
}

export function readRepositories(db: Db, history: MetricsReader['history']): ReadRepositories {
  return {
    ...plainTables<Pick<ReadRepositories, Plain>>(db, PLAIN, false),
    meta: metaReader(db),
    ...accountReaders(db),
    ...dimensionReaders(db),
    ...plusReaders(db),
    ...runnerReaders(db),
    ...regressionReaders(db),
    ...notificationReaders(db),
    reports: reportsReader(db),
    metrics: metricsReader(db, history),
    named: namedReader(db),
  };
}

export function writeRepositories(db: Db, own: EngineParts): WriteRepositories {
  return {
    ...plainTables<Pick<WriteRepositories, Plain>>(db, PLAIN, true),
    meta: metaWriter(db),
    locks: own.locks,
    ...accountWriters(db),
    ...dimensionWriters(db),
    ...plusWriters(db),
    ...runnerWriters(db),
    ...regressionWriters(db),
    ...notificationWriters(db),
    reports: { ...tableWriter<ReportRecord, never>(db, reports), ...reportsReader(db) },
    metrics: {
      ...metricsReader(db, own.history),
      append: own.append,
      deleteReport: (reportId) => deleteReport(db, reportId),
    },
    named: namedWriter(db),
  };
}
