import { useEffect, useMemo } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { PerfJson, PlotJson } from '../../api/perf-types.js';
import { ActionButton } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDuration } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { PerfPlot, preloadPlot } from '../../perf/lazy-plot.js';
import { PlotKey } from '../../perf/plot-key.js';
import { explorerHref } from '../../perf/selection.js';
import { jsonColumns } from '../../perf/columns.js';
import { buildPlotData, logAxis } from '../../perf/series.js';
import { tabHref, type ProjectContext } from './context.js';

const NO_HIDDEN: ReadonlySet<number> = new Set();

function PinnedPlot({ ctx, plot }: { ctx: ProjectContext; plot: PlotJson }) {
  const perf = useApi(
    (signal) =>
      api.get<PerfJson>(
        `${ctx.path}/perf`,
        {
          branches: plot.branches.join(','),
          testbeds: plot.testbeds.join(','),
          benchmarks: plot.benchmarks.join(','),
          measures: plot.measures.join(','),
          start_time: Date.now() - plot.window * 1000,
        },
        signal,
      ),
    [plot.uuid, plot.modified],
  );
  const data = useMemo(() => {
    if (!perf.data) return undefined;
    const columns = jsonColumns(perf.data);
    return buildPlotData(columns, plot.x_axis, logAxis(plot.y_axis, columns));
  }, [perf.data, plot.x_axis, plot.y_axis]);
  if (perf.error) return <ErrorMessage error={perf.error} />;
  if (!data) return <Loading what="Loading the plot" />;
  if (data.series.length === 0)
    return <Empty title={`No results in the last ${formatDuration(plot.window)}.`} />;
  return (
    <>
      <PerfPlot
        data={data}
        hidden={NO_HIDDEN}
        bounds={plot.lower_boundary || plot.upper_boundary}
        yAxis={data.log ? 'log' : 'linear'}
        height={260}
        reportHref={(uuid) => `${ctx.base}/reports/${uuid}`}
        label={plot.title ?? 'Pinned plot'}
      />
      <PlotKey data={data} />
    </>
  );
}

/** The project's dashboard: pinned plots in their order; move them up or down, or remove them. */
export function Plots({ ctx }: { ctx: ProjectContext }) {
  const list = useApi(
    (signal) => api.list<PlotJson>(`${ctx.path}/plots`, { per_page: 64, sort: 'index' }, signal),
    [ctx.path],
  );
  useEffect(() => void preloadPlot(), []);
  const plots = [...(list.data?.data ?? [])].sort((a, b) => a.index - b.index);
  const move = (plot: PlotJson, to: number) => async () => {
    await api.patch(`${ctx.path}/plots/${plot.uuid}`, { index: to });
    list.reload();
  };
  return (
    <section>
      <PageHeader title="Dashboard" />
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && plots.length === 0 && (
        <Empty title="No pinned plots yet.">
          Choose a view in the <a href={tabHref(ctx, 'perf')}>perf explorer</a> and pin it to the dashboard.
        </Empty>
      )}
      <ol class="dashboard">
        {plots.map((plot, position) => (
          <li key={plot.uuid} class="card">
            <div class="page-header">
              <h2>{plot.title ?? 'Untitled plot'}</h2>
              <div class="actions">
                <a
                  class="button"
                  href={explorerHref(tabHref(ctx, 'perf'), {
                    branches: plot.branches,
                    testbeds: plot.testbeds,
                    benchmarks: plot.benchmarks,
                    measures: plot.measures,
                    x_axis: plot.x_axis,
                    y_axis: plot.y_axis,
                  })}
                >
                  Explore
                </a>
                {ctx.canEdit && (
                  <>
                    <ActionButton
                      label={`Move ${plot.title ?? 'plot'} up`}
                      action={move(plot, plots[position - 1]?.index ?? 0)}
                    >
                      ↑
                    </ActionButton>
                    <ActionButton
                      label={`Move ${plot.title ?? 'plot'} down`}
                      action={move(plot, plots[position + 1]?.index ?? plot.index)}
                    >
                      ↓
                    </ActionButton>
                    <ActionButton
                      class="danger"
                      label={`Remove ${plot.title ?? 'plot'}`}
                      confirm="Remove this plot from the dashboard?"
                      action={async () => {
                        await api.delete(`${ctx.path}/plots/${plot.uuid}`);
                        list.reload();
                      }}
                    >
                      Remove
                    </ActionButton>
                  </>
                )}
              </div>
            </div>
            <p class="muted small">Last {formatDuration(plot.window)}</p>
            <PinnedPlot ctx={ctx} plot={plot} />
          </li>
        ))}
      </ol>
    </section>
  );
}
