import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { PERF_IMAGE_LINES_MAX, PERF_PERMUTATIONS_MAX, type PerfChangesJson } from '../api/perf-types.js';
import type { AlertJson, DimensionJson, RegressionJson, ReportJson } from '../api/types.js';
import { Empty, ErrorMessage, Loading, useTitle } from '../components/status.js';
import { useMediaQuery } from '../lib/color-scheme.js';
import { plural } from '../lib/format.js';
import { useApi } from '../lib/use-api.js';
import type { ProjectContext } from '../pages/project/context.js';
import { setQuery, useLocation } from '../router.js';
import { ChangeList } from './change-list.js';
import { download, perfCsv } from './export.js';
import { Embed } from './embed.js';
import { Legend } from './legend.js';
import { PerfPlot, preloadPlot } from './lazy-plot.js';
import { Picker } from './picker.js';
import { PinForm } from './pin-form.js';
import { RangeControls } from './range-controls.js';
import {
  DIMENSION_TABS,
  hiddenIndices,
  hiddenKeys,
  isComplete,
  parseSelection,
  perfQuery,
  permutations,
  selectionQuery,
  type DimensionTab,
  type Selection,
} from './selection.js';
import { buildPlotData, logAxis, plotTitle, withChanges, withRegressions } from './series.js';
import { loadPerf, preloadArrow } from './wire.js';

const TAB_LABELS = {
  branches: 'Branches',
  testbeds: 'Testbeds',
  benchmarks: 'Benchmarks',
  measures: 'Measures',
} as const;

/**
 * With nothing chosen yet, a first view of what matters: the branch and testbed of the most recent report, the
 * measure of their newest open alert, the benchmarks with open alerts first, then others by name.
 */
async function defaultSelection(
  path: string,
  signal: AbortSignal,
): Promise<Pick<Selection, DimensionTab> | undefined> {
  const first = (kind: string, count: number) =>
    api.list<DimensionJson>(`${path}/${kind}`, { per_page: count, sort: 'name' }, signal).then((r) => r.data);
  const [latest, measures, benchmarks] = await Promise.all([
    api.list<ReportJson>(`${path}/reports`, { per_page: 1 }, signal).then((r) => r.data[0]),
    first('measures', 1),
    first('benchmarks', PERF_IMAGE_LINES_MAX),
  ]);
  if (!latest) return undefined;
  // the newest open alerts of that branch and testbed, filtered by the API: a page, not the whole list
  const here = await api
    .list<AlertJson>(
      `${path}/alerts`,
      {
        status: 'active',
        branch: latest.branch.uuid,
        testbed: latest.testbed.uuid,
        sort: 'modified',
        direction: 'desc',
        per_page: 8 * PERF_IMAGE_LINES_MAX,
      },
      signal,
    )
    .then((r) => r.data);
  const measure = here[0]?.measure.uuid ?? measures[0]?.uuid;
  const alerted = here.filter((a) => a.measure.uuid === measure).map((a) => a.benchmark.uuid);
  return {
    branches: [latest.branch.uuid],
    testbeds: [latest.testbed.uuid],
    measures: measure ? [measure] : [],
    benchmarks: [...new Set([...alerted, ...benchmarks.map((b) => b.uuid)])].slice(0, PERF_IMAGE_LINES_MAX),
  };
}

const SUMMARY_WORDS: Record<DimensionTab, [string, string]> = {
  branches: ['branch', 'branches'],
  testbeds: ['testbed', 'testbeds'],
  benchmarks: ['benchmark', 'benchmarks'],
  measures: ['measure', 'measures'],
};

/** What is chosen, in a few words: "1 branch, 1 testbed, 40 benchmarks, 1 measure". */
function selectionSummary(selection: Selection): string {
  return DIMENSION_TABS.map((k) => plural(selection[k].length, ...SUMMARY_WORDS[k])).join(', ');
}

/**
 * The perf explorer: pick dimensions on the left, plot on the right, everything in the URL. Up to 255
 * series (the API's limit) of any length; the plot is uPlot on a canvas, the key a table.
 */
export function Explorer({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const selection = useMemo(() => parseSelection(query), [query.toString()]);
  useTitle('Perf');
  useEffect(() => void Promise.all([preloadPlot(), preloadArrow()]), []);
  const update = (changes: Partial<Selection>) => {
    const dimensionsChanged = DIMENSION_TABS.some((k) => k in changes) || 'x_axis' in changes;
    // other series or another time range: the hidden lines and the zoom no longer apply
    const rangeChanged = 'range' in changes || 'start_time' in changes || 'end_time' in changes;
    setQuery(
      selectionQuery({
        ...selection,
        ...(dimensionsChanged ? { hidden: [] } : {}),
        ...(dimensionsChanged || rangeChanged ? { zoom: undefined } : {}),
        ...changes,
      }),
    );
  };

  const empty = DIMENSION_TABS.every((k) => selection[k].length === 0);
  useEffect(() => {
    if (!empty) return;
    const controller = new AbortController();
    defaultSelection(ctx.path, controller.signal).then(
      (defaults) => {
        if (!controller.signal.aborted && defaults && isComplete(defaults))
          setQuery(selectionQuery({ ...selection, ...defaults }));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [empty, ctx.path]);

  const count = permutations(selection);
  const tooMany = count > PERF_PERMUTATIONS_MAX;
  const queryKey = JSON.stringify([
    ctx.path,
    ...DIMENSION_TABS.map((k) => selection[k]),
    selection.range,
    selection.start_time,
    selection.end_time,
  ]);
  const perf = useApi(
    (signal) =>
      count > 0 && !tooMany
        ? loadPerf(`${ctx.path}/perf`, selection, signal).then((answer) => {
            performance.mark('benchtrack:perf-parsed');
            return answer;
          })
        : Promise.resolve(undefined),
    [queryKey],
  );
  const changes = useApi(
    (signal) =>
      selection.changes && count > 0 && !tooMany
        ? api.get<PerfChangesJson>(`${ctx.path}/perf/changes`, perfQuery(selection), signal)
        : Promise.resolve(undefined),
    [queryKey, selection.changes],
  );
  // The regressions that may touch the plotted series, marked at their first bad version (not the suspected
  // ones, nor those the detector or a person found invalid).
  const regressions = useApi(
    (signal) =>
      count > 0 && !tooMany
        ? api
            .list<RegressionJson>(
              `${ctx.path}/regressions`,
              {
                status: 'untriaged,acknowledged,fixed,expected',
                per_page: 255,
                ...(selection.branches.length === 1 ? { branch: selection.branches[0] } : {}),
                ...(selection.testbeds.length === 1 ? { testbed: selection.testbeds[0] } : {}),
                ...(selection.measures.length === 1 ? { measure: selection.measures[0] } : {}),
              },
              signal,
            )
            .then((r) => r.data)
        : Promise.resolve([]),
    [queryKey],
  );
  const plotted = useMemo(() => {
    if (!perf.data) return undefined;
    const data = buildPlotData(perf.data, selection.x_axis, logAxis(selection.y_axis, perf.data));
    performance.mark('benchtrack:plot-data');
    return data;
  }, [perf.data, selection.x_axis, selection.y_axis]);
  const data = useMemo(() => {
    const changed =
      plotted && selection.changes && changes.data ? withChanges(plotted, changes.data) : plotted;
    return changed && regressions.data ? withRegressions(changed, regressions.data) : changed;
  }, [plotted, selection.changes, changes.data, regressions.data]);
  const hidden = useMemo(
    () => hiddenIndices(selection, data?.series.map((s) => s.source) ?? []),
    [data, selection.hidden.join(',')],
  );
  const [pinOpen, setPinOpen] = useState(false);
  // the line of the key's row under the pointer or focus, emphasised on the plot
  const [emphasis, setEmphasis] = useState<number>();
  // The key (a row per series) renders in the task after the plot, so the plot is drawn and answers sooner.
  const [legendFor, setLegendFor] = useState<typeof data>();
  useEffect(() => {
    const timer = setTimeout(() => setLegendFor(data));
    return () => clearTimeout(timer);
  }, [data]);
  // On a narrow screen the picker folds once the selection is complete, so the plot is on the first screen; a person's
  // choice (the toggle) then holds. Wide screens always show it (the toggle is hidden there).
  const [pickerChoice, setPickerChoice] = useState<boolean>();
  // a phone's first screen holds the folded picker, the plot options and a shorter plot
  const phone = useMediaQuery('(max-width: 560px)');
  const pickerOpen = pickerChoice ?? count === 0;
  const points = data?.series.reduce((sum, s) => sum + s.source.length, 0) ?? 0;
  const title = data?.series.length === 1 ? data.series[0]!.label : ctx.project.name;

  return (
    <div class="explorer">
      <aside class={pickerOpen ? 'explorer-side' : 'explorer-side folded'} aria-label="Choose what to plot">
        <button
          type="button"
          class="picker-toggle"
          aria-expanded={pickerOpen}
          aria-controls="explorer-picker"
          onClick={() => setPickerChoice(!pickerOpen)}
        >
          Choose what to plot <span class="muted small">{selectionSummary(selection)}</span>
        </button>
        <div id="explorer-picker" class="picker-body">
          <a
            class="skip-to-plot"
            href="#plot"
            onClick={(event) => {
              // The plot, without tabbing through every checkbox of the picker.
              event.preventDefault();
              document.querySelector<HTMLElement>('.explorer-main [data-testid=perf-plot]')?.focus();
            }}
          >
            Skip to the plot
          </a>
          <div class="tabs small" role="group" aria-label="Dimension to choose">
            {DIMENSION_TABS.map((tab) => (
              <button
                key={tab}
                type="button"
                aria-pressed={selection.tab === tab}
                onClick={() => update({ tab })}
              >
                {TAB_LABELS[tab]} <span class="count">{selection[tab].length}</span>
              </button>
            ))}
          </div>
          <div role="region" aria-label={`Choose ${TAB_LABELS[selection.tab].toLowerCase()}`}>
            <Picker
              key={selection.tab}
              path={ctx.path}
              kind={selection.tab}
              selected={selection[selection.tab]}
              limit={selection.tab === 'measures' ? 2 : undefined}
              onChange={(uuids) => update({ [selection.tab]: uuids })}
            />
          </div>
        </div>
      </aside>
      <section class="explorer-main" aria-label="Plot">
        <h1 class="sr-only">{ctx.project.name}: perf</h1>
        <RangeControls selection={selection} onChange={update} />
        <div class="explorer-status">
          <span aria-live="polite" data-testid="plot-status">
            {count === 0
              ? 'Choose at least one branch, testbed, benchmark and measure.'
              : tooMany
                ? ''
                : perf.loading
                  ? `Loading ${plural(count, 'series', 'series')}…`
                  : `${plural(data?.series.length ?? 0, 'series', 'series')}, ${plural(points, 'point')}`}
          </span>
          {data && data.series.length > 0 && (
            <span class="actions">
              {data.series.length <= PERF_IMAGE_LINES_MAX ? (
                <Embed ctx={ctx} selection={selection} title={title} />
              ) : (
                <button type="button" disabled title={`An image shows at most ${PERF_IMAGE_LINES_MAX} lines`}>
                  Copy image link
                </button>
              )}
              <button
                type="button"
                onClick={() =>
                  perf.data && download(`${ctx.project.slug}-perf.csv`, perfCsv(perf.data), 'text/csv')
                }
              >
                Download CSV
              </button>
              {ctx.canEdit && (
                <button type="button" aria-expanded={pinOpen} onClick={() => setPinOpen(!pinOpen)}>
                  Pin to dashboard
                </button>
              )}
            </span>
          )}
        </div>
        {data && data.series.length > PERF_IMAGE_LINES_MAX && (
          <p class="muted small lines-note">
            The embeddable image draws at most {PERF_IMAGE_LINES_MAX} lines: narrow the selection to copy its
            link.
          </p>
        )}
        {pinOpen && data && (
          <PinForm ctx={ctx} selection={selection} suggested={plotTitle(data)} onDone={() => undefined} />
        )}
        {tooMany && (
          <ErrorMessage
            error={`This selection makes ${count.toLocaleString()} series (branches × testbeds × benchmarks × measures); a plot shows at most ${PERF_PERMUTATIONS_MAX}. Deselect some.`}
          />
        )}
        <ErrorMessage error={perf.error} />
        {selection.changes && changes.error && (
          <ErrorMessage error={`The change points could not be loaded: ${changes.error.message}`} />
        )}
        {perf.error && (
          <p>
            <button type="button" onClick={perf.reload}>
              Retry
            </button>{' '}
            {data && (
              <span class="muted small">The plot below is the last answer, from before the error.</span>
            )}
          </p>
        )}
        {perf.loading && !data && count > 0 && !tooMany && <Loading what="Loading the results" />}
        {data && data.series.length === 0 && (
          <Empty title="No results for this selection.">
            Widen the time range, or choose other branches, testbeds or benchmarks.
          </Empty>
        )}
        {data && data.series.length > 0 && (
          <div class={perf.error ? 'stale' : undefined}>
            <PerfPlot
              data={data}
              hidden={hidden}
              bounds={selection.bounds}
              yAxis={data.log ? 'log' : 'linear'}
              height={phone ? 300 : 420}
              reportHref={(uuid) => `${ctx.base}/reports/${uuid}`}
              label={`Perf plot of ${plural(data.series.length, 'series', 'series')}`}
              emphasis={emphasis}
              zoom={selection.zoom}
              onZoom={(zoom) => update({ zoom })}
            />
            <p class="muted small">
              Drag across the plot to zoom, double-click to zoom out; hover or focus it and use the arrow keys
              for details.
            </p>
            {selection.changes &&
              (changes.data ? (
                <ChangeList
                  data={data}
                  hidden={hidden}
                  reportHref={(uuid) => `${ctx.base}/reports/${uuid}`}
                />
              ) : (
                !changes.error && <Loading what="Finding change points" />
              ))}
            {legendFor === data && (
              <Legend
                data={data}
                hidden={hidden}
                onEmphasis={setEmphasis}
                onHidden={(h) =>
                  update({
                    hidden: hiddenKeys(
                      selection,
                      data.series.map((s) => s.source),
                      h,
                    ),
                  })
                }
              />
            )}
          </div>
        )}
      </section>
    </div>
  );
}
