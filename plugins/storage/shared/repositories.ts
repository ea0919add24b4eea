import type {
  LocksWriter,
  MetricsReader,
  MetricsWriter,
  ReadRepositories,
  WriteRepositories,
} from '../../../kit/index.js';
import { ACCOUNTS } from './accounts.js';
import { ALERTS } from './alerts.js';
import { DIMENSIONS, headVersions } from './dimensions.js';
import { metaReader, metaWriter } from './meta.js';
import { NOTIFICATIONS } from './notifications.js';
import { perf, perfCount, perfLines } from './perf.js';
import { PLUS } from './plus.js';
import {
  deleteReport,
  metricRows,
  namedReader,
  namedWriter,
  plots,
  reports,
  reportsReader,
} from './reports.js';
import { REGRESSIONS } from './regressions.js';
import { RUNNERS } from './runners.js';
import type { Db } from './sql.js';
import { table, tableWriter, type Repository, type Shared } from './table.js';

/** What each engine does its own way: its locks, its history read and its bulk write of metrics. */
export interface EngineParts {
  readonly locks: LocksWriter;
  readonly history: MetricsReader['history'];
  readonly append: MetricsWriter['append'];
}

/** Every repository both engines share, by its name in the kit's `ReadRepositories` and `WriteRepositories`. */
const SHARED: Shared = {
  meta: { reader: metaReader, writer: metaWriter },
  ...ACCOUNTS,
  ...DIMENSIONS,
  alerts: ALERTS,
  reports: { reader: reportsReader, writer: (db) => ({ ...tableWriter(db, reports), ...reportsReader(db) }) },
  named: { reader: namedReader, writer: namedWriter },
  plots: table(plots),
  ...PLUS,
  ...REGRESSIONS,
  ...RUNNERS,
  ...NOTIFICATIONS,
};

type Opened<S extends 'reader' | 'writer'> = { [K in keyof Shared]: ReturnType<Shared[K][S]> };

/** The reader, or the writer, of every shared repository on `db`. */
const EACH = Object.entries(SHARED) as [string, Repository<unknown, unknown>][];
function open<S extends 'reader' | 'writer'>(side: S, db: Db): Opened<S> {
  const opened: Record<string, unknown> = {};
  for (const [name, repository] of EACH) opened[name] = repository[side](db);
  return opened as Opened<S>;
}

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
  return { ...open('reader', db), metrics: metricsReader(db, history) };
}

export function writeRepositories(db: Db, own: EngineParts): WriteRepositories {
  return {
    ...open('writer', db),
    locks: own.locks,
    headVersions: headVersions(db),
    metrics: {
      ...metricsReader(db, own.history),
      append: own.append,
      deleteReport: (reportId) => deleteReport(db, reportId),
    },
  };
}
