import { useEffect, useMemo } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { PerfJson } from '../../api/perf-types.js';
import { Empty, ErrorMessage, Loading } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { jsonColumns, type SeriesColumns } from '../../perf/columns.js';
import { PerfPlot, preloadPlot } from '../../perf/lazy-plot.js';
import { buildPlotData, logAxis, withRegressions } from '../../perf/series.js';
import type { ProjectContext } from './context.js';
import { changeText, type Regression, type RegressionSeries } from './regression-text.js';

const DAY = 86_400_000;
const NO_HIDDEN: ReadonlySet<number> = new Set();

/**
 * The window a small multiple shows: about twenty runs either side of the first bad report, judged by the time
 * between the last good report and it (a day at least, ninety days at most; thirty days when there is no last good).
 */
export function changeWindow(regression: Regression): { start_time: number; end_time: number } | undefined {
  const { first_bad, last_good } = regression.reports;
  if (!first_bad) return undefined;
  const at = Date.parse(first_bad.start_time);
  const gap = last_good ? at - Date.parse(last_good.start_time) : 1.5 * DAY;
  const half = Math.min(90 * DAY, Math.max(DAY, 20 * gap));
  return { start_time: at - half, end_time: at + half };
}

/** Every series of a regression around its change: one perf query per measure, one small plot per series. */
export function RegressionPlots({ ctx, regression }: { ctx: ProjectContext; regression: Regression }) {
  useEffect(() => void preloadPlot(), []);
  const window = changeWindow(regression);
  const perf = useApi(
    async (signal) => {
      if (!window) return [];
      const measures = [...new Set(regression.series.map((s) => s.measure.uuid))];
      const answers = await Promise.all(
        measures.map((measure) =>
          api.get<PerfJson>(
            `${ctx.path}/perf`,
            {
              branches: regression.branch.uuid,
              testbeds: regression.testbed.uuid,
              benchmarks: [
                ...new Set(
                  regression.series.filter((s) => s.measure.uuid === measure).map((s) => s.benchmark.uuid),
                ),
              ].join(','),
              measures: measure,
              ...window,
              threshold_models: 'false',
            },
            signal,
          ),
        ),
      );
      return answers.flatMap(jsonColumns);
    },
    [ctx.path, regression.uuid, regression.modified],
  );
  if (!window) return <Empty title="The report at the first bad version is gone: nothing to plot." />;
  if (perf.error) return <ErrorMessage error={perf.error} />;
  if (!perf.data) return <Loading what="Loading the series around the change" />;
  return (
    <div class="small-multiples">
      {regression.series.map((s) => (
        <SeriesPlot
          key={`${s.benchmark.uuid} ${s.measure.uuid}`}
          ctx={ctx}
          regression={regression}
          series={s}
          columns={perf.data!.find(
            (c) => c.benchmark.uuid === s.benchmark.uuid && c.measure.uuid === s.measure.uuid,
          )}
        />
      ))}
    </div>
  );
}

/** One series around the change, small: its values and limits, the change marked with its levels before and after, and the reports on either side ringed. */
function SeriesPlot({
  ctx,
  regression,
  series,
  columns,
}: {
  ctx: ProjectContext;
  regression: Regression;
  series: RegressionSeries;
  columns: SeriesColumns | undefined;
}) {
  const data = useMemo(
    () =>
      columns &&
      withRegressions(
        buildPlotData([columns], 'date_time', logAxis('auto', [columns])),
        [{ ...regression, series: [series] }],
        true,
      ),
    [columns, regression.modified],
  );
  const title = `${series.benchmark.name} · ${series.measure.name}`;
  const reports = [regression.reports.last_good?.uuid, regression.reports.first_bad?.uuid].filter(
    (uuid): uuid is string => uuid !== undefined,
  );
  return (
    <figure class="small-multiple" data-testid="regression-series">
      <figcaption>
        {title} <span class="muted">{changeText(series.change)}</span>
      </figcaption>
      {!data || data.series.length === 0 ? (
        <Empty title="No results around the change." />
      ) : (
        <PerfPlot
          data={data}
          hidden={NO_HIDDEN}
          bounds={true}
          yAxis={data.log ? 'log' : 'linear'}
          height={180}
          highlight={reports}
          reportHref={(uuid) => `${ctx.base}/reports/${uuid}`}
          label={`${title} around the change at version ${regression.first_bad.number}, with its limits`}
        />
      )}
    </figure>
  );
}
