import { api, listAll } from '../../api/client.js';
import type { DimensionJson, ReportJson, ThresholdJson } from '../../api/types.js';
import { Empty, ErrorMessage, Loading } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { HistoryPlot, type History } from '../../perf/history-plot.js';
import type { ProjectContext } from './context.js';

const DAYS = 90;

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

/** The results this threshold tested, with the limits its models produced over time. */
export function ThresholdPlot({ ctx, threshold }: { ctx: ProjectContext; threshold: ThresholdJson }) {
  const history = useApi((signal) => thresholdHistory(ctx, threshold, signal), [ctx.path, threshold.uuid]);
  if (history.error) return <ErrorMessage error={history.error} />;
  if (history.loading && !history.data) return <Loading what="Loading the plot" />;
  if (!history.data) return <Empty title="No results on this branch and testbed yet." />;
  return (
    <HistoryPlot
      ctx={ctx}
      history={history.data}
      label={`${threshold.measure.name} on ${threshold.branch.name} · ${threshold.testbed.name} with its limits`}
    />
  );
}
