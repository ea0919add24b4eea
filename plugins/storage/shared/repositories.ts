import type {
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
import { deleteReport, metricRows, REPORTS } from './reports.js';
import { REGRESSIONS } from './regressions.js';
import { RUNNERS } from './runners.js';
import type { Db } from './sql.js';
import type { Repository, Shared } from './table.js';

/** Every repository both engines share, by its name in the kit's `ReadRepositories` and `WriteRepositories`. */
const SHARED: Shared = {
  meta: { reader: metaReader, writer: metaWriter },
  ...ACCOUNTS,
  ...DIMENSIONS,
  alerts: ALERTS,
  ...REPORTS,
  ...PLUS,
  ...REGRESSIONS,
  ...RUNNERS,
  ...NOTIFICATIONS,
};

type Opened<S extends 'reader' | 'writer'> = { [K in keyof Shared]: ReturnType<Shared[K][S]> };

/** The reader, or the writer, of every shared repository on `db`. */
const EACH = Object.entries(SHARED) as [string, Repository<unknown, unknown>][];
function open<S extends 'reader' | 'writer'>(side: S, db: Db): Opened<S> {
  return Object.fromEntries(EACH.map(([name, repository]) => [name, repository[side](db)])) as Opened<S>;
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

/** The writers on `db`, with what each engine does its own way: locks, the history read, metrics' bulk write. */
export function writeRepositories(
  db: Db,
  own: Pick<WriteRepositories, 'locks'> & Pick<MetricsWriter, 'history' | 'append'>,
): WriteRepositories {
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
