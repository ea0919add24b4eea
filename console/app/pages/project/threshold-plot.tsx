import { useMemo, useState } from 'preact/hooks';
import { api, listAll } from '../../api/client.js';
import type { DimensionJson, ReportJson, ThresholdJson } from '../../api/types.js';
import { Empty, ErrorMessage, Loading } from '../../components/status.js';
import { plural } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import type { SeriesColumns } from '../../perf/columns.js';
import { ColumnsPlot, useHistoryColumns, type History } from '../../perf/history-plot.js';
import { explorerHref } from '../../perf/selection.js';
import { tabHref, type ProjectContext } from './context.js';

const DAYS = 90;
/** Lines a threshold's plot draws at first: more than this cannot be told apart. */
const TOP = 8;

/** Every benchmark (up to the perf query's 255) over the 90 days before the last report of the branch and testbed. */
async function thresholdHistory(
  ctx: ProjectContext,
  threshold: ThresholdJson,
  signal: AbortSignal,
): Promise<History | undefined> {
  const [latest, benchmarks] = await Promise.all([
    api.list<ReportJson>(
      `${ctx.path}/reports`,
      { branch: threshold.branch.uuid, testbed: threshold.testbed.uuid, per_page: 1 },
      signal,
    ),
    listAll<DimensionJson>(`${ctx.path}/benchmarks`, { sort: 'name' }, signal),
  ]);
  const last = latest.data[0];
  if (!last || benchmarks.length === 0) return undefined;
  const end = Date.parse(last.end_time);
  return {
    branches: [threshold.branch.uuid],
    testbeds: [threshold.testbed.uuid],
    benchmarks: benchmarks.slice(0, 255).map((b) => b.uuid),
    measures: [threshold.measure.uuid],
    start_time: end - DAYS * 86_400_000,
    end_time: end,
  };
}

interface Ranked {
  /** Series by alerts in the window, most first (then by name). */
  readonly series: readonly { columns: SeriesColumns; alerts: number }[];
  readonly alerts: number;
  /** Reports with a result of the measure in the window. */
  readonly reports: number;
}

function rank(columns: readonly SeriesColumns[]): Ranked {
  const reports = new Set<string>();
  const series = columns.map((c) => {
    let alerts = 0;
    for (let i = 0; i < c.length; i++) {
      if (c.alert(i) !== null) alerts++;
      reports.add(c.report(i));
    }
    return { columns: c, alerts };
  });
  series.sort(
    (a, b) => b.alerts - a.alerts || a.columns.benchmark.name.localeCompare(b.columns.benchmark.name),
  );
  return { series, alerts: series.reduce((sum, s) => sum + s.alerts, 0), reports: reports.size };
}

/** "0.35 alerts per report": how often the threshold alerted over the window. */
function AlertRate({ ranked }: { ranked: Ranked }) {
  const rate = ranked.reports ? ranked.alerts / ranked.reports : 0;
  return (
    <p data-testid="alert-rate">
      <strong>{rate.toLocaleString(undefined, { maximumFractionDigits: 2 })} alerts per report</strong> over
      the {DAYS} days: {plural(ranked.alerts, 'alert')} in {plural(ranked.reports, 'report')}
    </p>
  );
}

/**
 * The results this threshold tested, with the limits its models produced over time: the benchmarks with the most
 * alerts in the window first, a few lines at a time (all of them on request, or in the explorer).
 */
function ThresholdLines({
  ctx,
  threshold,
  history,
}: {
  ctx: ProjectContext;
  threshold: ThresholdJson;
  history: History;
}) {
  const columns = useHistoryColumns(ctx, history);
  const [all, setAll] = useState(false);
  const ranked = useMemo(() => columns.data && rank(columns.data), [columns.data]);
  const shown = useMemo(() => ranked && (all ? ranked.series : ranked.series.slice(0, TOP)), [ranked, all]);
  const plotted = useMemo(() => shown?.map((s) => s.columns), [shown]);
  if (columns.error) return <ErrorMessage error={columns.error} />;
  if (!ranked || !shown || !plotted) return <Loading what="Loading the plot" />;
  const more = ranked.series.length > TOP;
  return (
    <div class="threshold-plot">
      <AlertRate ranked={ranked} />
      {more && (
        <p class="muted small">
          {all
            ? `All ${ranked.series.length} benchmarks.`
            : `The ${TOP} of ${ranked.series.length} benchmarks with the most alerts in the window.`}{' '}
          <button type="button" class="link" onClick={() => setAll(!all)}>
            {all ? `Plot the top ${TOP}` : `Plot all ${ranked.series.length}`}
          </button>{' '}
          ·{' '}
          <a
            href={explorerHref(tabHref(ctx, 'perf'), {
              ...history,
              range: 'custom',
              benchmarks: ranked.series.map((s) => s.columns.benchmark.uuid),
            })}
          >
            Open them all in the explorer
          </a>
        </p>
      )}
      <ColumnsPlot
        ctx={ctx}
        columns={plotted}
        label={`${threshold.measure.name} on ${threshold.branch.name} · ${threshold.testbed.name} with its limits`}
        plotKey={(i) =>
          shown[i]!.alerts > 0 && <span class="badge alert">{plural(shown[i]!.alerts, 'alert')}</span>
        }
      />
    </div>
  );
}

export function ThresholdPlot({ ctx, threshold }: { ctx: ProjectContext; threshold: ThresholdJson }) {
  const history = useApi((signal) => thresholdHistory(ctx, threshold, signal), [ctx.path, threshold.uuid]);
  if (history.error) return <ErrorMessage error={history.error} />;
  if (history.loading && !history.data) return <Loading what="Loading the plot" />;
  if (!history.data) return <Empty title="No results on this branch and testbed yet." />;
  return <ThresholdLines ctx={ctx} threshold={threshold} history={history.data} />;
}
