import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { BranchJson, DimensionJson, ReportJson } from '../../api/types.js';
import { DimensionLink } from '../../components/dimension-link.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDate, formatDateTime, shortHash } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { HistoryPlot } from '../../perf/history-plot.js';
import { explorerHref } from '../../perf/selection.js';
import { tabHref, type LinkedDimension, type ProjectContext } from './context.js';
import { reportExplorerHref, ReportPlots } from './report.js';

const DAY = 86_400_000;
const WINDOW_DAYS = 30;
const SERIES_MAX = 255;
/** Plots on a benchmark's page: one per measure, the first few by name. */
const MEASURES_MAX = 4;
const ONE = { branches: 'Branch', testbeds: 'Testbed', benchmarks: 'Benchmark' } as const;

interface Loaded {
  readonly dimension: BranchJson | DimensionJson;
  /** A branch's start point, by name. */
  readonly startPoint: BranchJson | null;
  /** The newest report on the branch or testbed, whole; on a benchmark's page the project's newest. */
  readonly latest: ReportJson | undefined;
}

async function load(ctx: ProjectContext, kind: LinkedDimension, item: string, signal: AbortSignal) {
  const dimension = await api.get<BranchJson | DimensionJson>(
    `${ctx.path}/${kind}/${segment(item)}`,
    {},
    signal,
  );
  const from = kind === 'branches' && 'head' in dimension ? dimension.head.start_point : null;
  const filter =
    kind === 'branches' ? { branch: dimension.uuid } : kind === 'testbeds' ? { testbed: dimension.uuid } : {};
  const [startPoint, newest] = await Promise.all([
    from ? api.get<BranchJson>(`${ctx.path}/branches/${from.branch}`, {}, signal) : null,
    api.list<ReportJson>(`${ctx.path}/reports`, { ...filter, per_page: 1 }, signal).then((r) => r.data[0]),
  ]);
  const latest = newest && (await api.get<ReportJson>(`${ctx.path}/reports/${newest.uuid}`, {}, signal));
  return { dimension, startPoint, latest } satisfies Loaded;
}

/** The window of a page's plots: the 30 days up to the newest report. */
function windowBefore(report: ReportJson): { start_time: number; end_time: number } {
  const end = Date.parse(report.end_time);
  return { start_time: end - WINDOW_DAYS * DAY, end_time: end };
}

/**
 * A benchmark's plots: one per measure, over every branch and testbed of the project (as many as fit the perf
 * query's 255 series), in the 30 days up to the project's newest report; the newest point found is its last report.
 */
function BenchmarkPlots({
  ctx,
  benchmark,
  latest,
  onLatest,
}: {
  ctx: ProjectContext;
  benchmark: DimensionJson;
  latest: ReportJson;
  onLatest: (point: { report: string; start: number }) => void;
}) {
  const dims = useApi(
    async (signal) => {
      const list = (kind: string, perPage: number) =>
        api
          .list<DimensionJson>(`${ctx.path}/${kind}`, { per_page: perPage, sort: 'name' }, signal)
          .then((r) => r.data);
      const [branches, testbeds, measures] = await Promise.all([
        list('branches', SERIES_MAX),
        list('testbeds', SERIES_MAX),
        list('measures', MEASURES_MAX),
      ]);
      const perBranch = Math.max(1, Math.min(testbeds.length, SERIES_MAX));
      return {
        branches: branches.slice(0, Math.max(1, Math.floor(SERIES_MAX / perBranch))),
        testbeds: testbeds.slice(0, perBranch),
        measures,
      };
    },
    [ctx.path],
  );
  if (dims.error) return <ErrorMessage error={dims.error} />;
  if (!dims.data) return <Loading what="Loading the plots" />;
  const { branches, testbeds, measures } = dims.data;
  const window = windowBefore(latest);
  return (
    <>
      <p>
        <a
          class="button"
          href={explorerHref(tabHref(ctx, 'perf'), {
            branches: branches.map((b) => b.uuid),
            testbeds: testbeds.map((t) => t.uuid),
            benchmarks: [benchmark.uuid],
            measures: measures.slice(0, 1).map((m) => m.uuid),
            range: 'custom',
            ...window,
          })}
        >
          Plot in the explorer
        </a>
      </p>
      {measures.map((measure) => (
        <div key={measure.uuid} class="report-plot">
          <h2>
            {measure.name}{' '}
            <span class="muted small">
              on every branch and testbed, the {WINDOW_DAYS} days up to the last report
            </span>
          </h2>
          <HistoryPlot
            ctx={ctx}
            history={{
              branches: branches.map((b) => b.uuid),
              testbeds: testbeds.map((t) => t.uuid),
              benchmarks: [benchmark.uuid],
              measures: [measure.uuid],
              ...window,
            }}
            label={`${measure.name} of ${benchmark.name} on every branch and testbed`}
            plotKey
            onData={(data) => {
              for (const s of data.series) {
                const last = s.source.length - 1;
                if (last >= 0) onLatest({ report: s.source.report(last), start: s.source.start[last]! });
              }
            }}
          />
        </div>
      ))}
    </>
  );
}

function LastReport({
  ctx,
  report,
}: {
  ctx: ProjectContext;
  report: { uuid: string; start: number } | undefined;
}) {
  return report ? (
    <a href={`${ctx.base}/reports/${report.uuid}`} data-testid="last-report">
      {formatDateTime(report.start)}
    </a>
  ) : (
    <span class="muted">none in the plotted window</span>
  );
}

/**
 * A branch, testbed or benchmark: what it is (a branch's version and start point), its last report, and plots of
 * its recent history.
 */
export function DimensionPage({
  ctx,
  kind,
  item,
}: {
  ctx: ProjectContext;
  kind: LinkedDimension;
  item: string;
}) {
  const loaded = useApi((signal) => load(ctx, kind, item, signal), [ctx.path, kind, item]);
  const [benchmarkLatest, setBenchmarkLatest] = useState<{ uuid: string; start: number }>();
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!loaded.data) return <Loading what={`Loading the ${ONE[kind].toLowerCase()}`} />;
  const { dimension, startPoint, latest } = loaded.data;
  const head = 'head' in dimension ? dimension.head : undefined;
  const last =
    kind === 'benchmarks'
      ? benchmarkLatest
      : latest && { uuid: latest.uuid, start: Date.parse(latest.start_time) };
  return (
    <section>
      <PageHeader title={`${ONE[kind]}: ${dimension.name}`}>
        {latest && kind !== 'benchmarks' && (
          <a class="button" href={reportExplorerHref(ctx, latest)}>
            Plot in the explorer
          </a>
        )}
      </PageHeader>
      <dl class="facts">
        <dt>Slug</dt>
        <dd class="mono">{dimension.slug}</dd>
        <dt>Created</dt>
        <dd>
          {formatDate(dimension.created)}
          {dimension.archived && <span class="badge">archived</span>}
        </dd>
        {head && (
          <>
            <dt>Latest version</dt>
            <dd class="mono">
              {head.version ? `#${head.version.number} ${shortHash(head.version.hash)}` : '—'}
            </dd>
            <dt>Start point</dt>
            <dd data-testid="start-point">
              {startPoint && head.start_point ? (
                <>
                  <DimensionLink ctx={ctx} kind="branches" of={startPoint} />
                  {head.start_point.version && (
                    <span class="mono">
                      {' '}
                      at #{head.start_point.version.number} {shortHash(head.start_point.version.hash)}
                    </span>
                  )}
                </>
              ) : (
                <span class="muted">none: its history starts with its own reports</span>
              )}
            </dd>
          </>
        )}
        <dt>Last report</dt>
        <dd>
          <LastReport ctx={ctx} report={last} />
        </dd>
      </dl>
      {!latest && <p class="muted">No report yet.</p>}
      {latest && kind !== 'benchmarks' && (
        // a branch's or testbed's: every measure of its newest report, over that report's benchmarks
        <ReportPlots
          ctx={ctx}
          report={latest}
          window={windowBefore(latest)}
          caption={`on ${latest.branch.name} · ${latest.testbed.name}, the ${WINDOW_DAYS} days up to the last report`}
          label={(measure) =>
            `${measure} up to the last report of ${latest.branch.name} on ${latest.testbed.name}`
          }
        />
      )}
      {latest && kind === 'benchmarks' && (
        <BenchmarkPlots
          ctx={ctx}
          benchmark={dimension}
          latest={latest}
          onLatest={(point) =>
            setBenchmarkLatest((known) =>
              known && known.start >= point.start ? known : { uuid: point.report, start: point.start },
            )
          }
        />
      )}
    </section>
  );
}
