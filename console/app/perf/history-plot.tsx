import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { api } from '../api/client.js';
import type { PerfJson } from '../api/perf-types.js';
import { Empty, ErrorMessage, Loading } from '../components/status.js';
import { useApi, type Loaded } from '../lib/use-api.js';
import type { ProjectContext } from '../pages/project/context.js';
import { PerfPlot, preloadPlot } from './lazy-plot.js';
import { jsonColumns, type SeriesColumns } from './columns.js';
import { PlotKey } from './plot-key.js';
import { buildPlotData, logAxis, type PlotData } from './series.js';

const NO_HIDDEN: ReadonlySet<number> = new Set();
const DAY = 86_400_000;

/** The series of a report, an alert or a threshold, as the perf query names them, with a time window. */
export interface History {
  readonly branches: readonly string[];
  readonly testbeds: readonly string[];
  readonly benchmarks: readonly string[];
  readonly measures: readonly string[];
  readonly start_time: number;
  readonly end_time: number;
}

/** A window of `days` before and after a moment (a report's start), in epoch milliseconds. */
export function around(iso: string, days = 30): { start_time: number; end_time: number } {
  const at = Date.parse(iso);
  return { start_time: at - days * DAY, end_time: at + days * DAY };
}

/** The perf answer for a history, as columns. */
export function useHistoryColumns(ctx: ProjectContext, history: History): Loaded<SeriesColumns[]> {
  useEffect(() => void preloadPlot(), []);
  return useApi(
    (signal) =>
      api
        .get<PerfJson>(
          `${ctx.path}/perf`,
          {
            branches: history.branches.join(','),
            testbeds: history.testbeds.join(','),
            benchmarks: history.benchmarks.join(','),
            measures: history.measures.join(','),
            start_time: history.start_time,
            end_time: history.end_time,
            threshold_models: 'false',
          },
          signal,
        )
        .then(jsonColumns),
    [ctx.path, JSON.stringify(history)],
  );
}

/** Series already loaded, plotted with their limits; the points of `highlight` (a report) ringed. */
export function ColumnsPlot({
  ctx,
  columns,
  highlight,
  label,
  onData,
  plotKey,
}: {
  ctx: ProjectContext;
  columns: readonly SeriesColumns[];
  highlight?: string;
  label: string;
  /** Called with the plotted data once it is built (a page that shows the newest point beside the plot). */
  onData?: (data: PlotData) => void;
  /** A key under the plot, with what the function adds to each line's entry. */
  plotKey?: true | ((index: number) => ComponentChildren);
}) {
  const data = useMemo(() => buildPlotData(columns, 'date_time', logAxis('auto', columns)), [columns]);
  const onDataRef = useRef(onData);
  onDataRef.current = onData;
  useEffect(() => onDataRef.current?.(data), [data]);
  if (data.series.length === 0) return <Empty title="No results in this window." />;
  return (
    <>
      <PerfPlot
        data={data}
        hidden={NO_HIDDEN}
        bounds={true}
        yAxis={data.log ? 'log' : 'linear'}
        height={300}
        highlight={highlight}
        reportHref={(uuid) => `${ctx.base}/reports/${uuid}`}
        label={label}
      />
      {plotKey && <PlotKey data={data} note={plotKey === true ? undefined : plotKey} />}
    </>
  );
}

/**
 * A plot of some series over a window with their limits; the points of `highlight` (a report) ringed. The pages
 * where people look for a regression (report, alert, threshold) show one.
 */
export function HistoryPlot({
  ctx,
  history,
  ...plot
}: {
  ctx: ProjectContext;
  history: History;
  highlight?: string;
  label: string;
  onData?: (data: PlotData) => void;
  plotKey?: true;
}) {
  const columns = useHistoryColumns(ctx, history);
  if (columns.error) return <ErrorMessage error={columns.error} />;
  if (!columns.data) return <Loading what="Loading the plot" />;
  return <ColumnsPlot ctx={ctx} columns={columns.data} {...plot} />;
}
