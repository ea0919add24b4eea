import type {
  LocksWriter,
  MetricsReader,
  MetricsWriter,
  ReadRepositories,
  ReportRecord,
  WriteRepositories,
} from '../../../kit/index.js';
import { accountReaders, accountWriters } from './accounts.js';
import { dimensionReaders, dimensionWriters } from './dimensions.js';
import { metaReader, metaWriter } from './meta.js';
import { perf, perfLines } from './perf.js';
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
import { regressionReaders, regressionWriters } from './regressions.js';
import { runnerReaders, runnerWriters } from './runners.js';
import type { Db } from './sql.js';
import { tableReader, tableWriter } from './table.js';

/** What each engine does its own way: its locks, its history read and its bulk write of metrics. */
export interface EngineParts {
  readonly locks: LocksWriter;
  readonly history: MetricsReader['history'];
  readonly append: MetricsWriter['append'];
}

function metricsReader(db: Db, history: MetricsReader['history']): MetricsReader {
  return {
    ...metricRows(db),
    history,
    perf: (request) => perf(db, request),
    perfLines: (request) => perfLines(db, request),
  };
}

export function readRepositories(db: Db, history: MetricsReader['history']): ReadRepositories {
  return {
    meta: metaReader(db),
    ...accountReaders(db),
    ...dimensionReaders(db),
    ...plusReaders(db),
    ...runnerReaders(db),
    ...regressionReaders(db),
    reports: reportsReader(db),
    metrics: metricsReader(db, history),
    named: namedReader(db),
    plots: tableReader(db, plots),
  };
}

export function writeRepositories(db: Db, own: EngineParts): WriteRepositories {
  return {
    meta: metaWriter(db),
    locks: own.locks,
    ...accountWriters(db),
    ...dimensionWriters(db),
    ...plusWriters(db),
    ...runnerWriters(db),
    ...regressionWriters(db),
    reports: { ...tableWriter<ReportRecord, never>(db, reports), ...reportsReader(db) },
    metrics: {
      ...metricsReader(db, own.history),
      append: own.append,
      deleteReport: (reportId) => deleteReport(db, reportId),
    },
    named: namedWriter(db),
    plots: tableWriter(db, plots),
  };
}
