import type { XAxis, YAxis } from '../api/perf-types.js';

/**
 * The explorer's whole state, kept in the URL so a view can be shared and reloaded. Dimension parameters use the
 * perf API's names and comma lists, so the image link and the API query are the same text.
 */
export interface Selection {
  readonly branches: readonly string[];
  readonly testbeds: readonly string[];
  readonly benchmarks: readonly string[];
  readonly measures: readonly string[];
  /** Relative range (`7d`, `30d`, `90d`, `365d`, `all`) or explicit epoch-ms bounds. */
  readonly range: string;
  readonly start_time: number | undefined;
  readonly end_time: number | undefined;
  readonly x_axis: XAxis;
  readonly y_axis: YAxis;
  /** Draw boundary bands and limits. */
  readonly bounds: boolean;
  /** Ask the API for each series' change points and draw them (off by default: one more query). */
  readonly changes: boolean;
  /** The plot's zoom: the x range shown (seconds, or version numbers), undefined for all of it. */
  readonly zoom?: readonly [number, number] | undefined;
  /** Series hidden from the plot, by identity (see seriesKey), so a range that leaves some out hides no other. */
  readonly hidden: readonly string[];
  /** The picker's open tab. */
  readonly tab: DimensionTab;
}

export type DimensionTab = 'branches' | 'testbeds' | 'benchmarks' | 'measures';
export const DIMENSION_TABS: readonly DimensionTab[] = ['branches', 'testbeds', 'benchmarks', 'measures'];
export const RANGES: readonly [string, string, number][] = [
  ['7d', 'Last 7 days', 7],
  ['30d', 'Last 30 days', 30],
  ['90d', 'Last 90 days', 90],
  ['365d', 'Last year', 365],
  ['all', 'All time', 0],
];

function list(query: URLSearchParams, key: string): string[] {
  return (query.get(key) ?? '').split(',').filter(Boolean);
}

function epoch(query: URLSearchParams, key: string): number | undefined {
  const value = Number(query.get(key) ?? '');
  return query.get(key) && Number.isFinite(value) ? value : undefined;
}

/** `zoom=from,to`: two numbers, the first below the second; anything else is no zoom. */
function zoomOf(text: string | null): readonly [number, number] | undefined {
  const [from, to, ...rest] = (text ?? '').split(',').map(Number);
  return from !== undefined && to !== undefined && rest.length === 0 && from < to ? [from, to] : undefined;
}

export function parseSelection(query: URLSearchParams): Selection {
  const start_time = epoch(query, 'start_time');
  const end_time = epoch(query, 'end_time');
  const tab = query.get('tab') as DimensionTab | null;
  return {
    branches: list(query, 'branches'),
    testbeds: list(query, 'testbeds'),
    benchmarks: list(query, 'benchmarks'),
    measures: list(query, 'measures').slice(0, 2),
    range: query.get('range') ?? (start_time !== undefined || end_time !== undefined ? 'custom' : 'all'),
    start_time,
    end_time,
    x_axis: query.get('x_axis') === 'version' ? 'version' : 'date_time',
    y_axis: query.get('y_axis') === 'log' ? 'log' : query.get('y_axis') === 'linear' ? 'linear' : 'auto',
    bounds: query.get('bounds') !== 'false',
    changes: query.get('changes') === 'true',
    zoom: zoomOf(query.get('zoom')),
    hidden: list(query, 'hidden').filter((key) => /^\d+\.\d+\.\d+\.\d+$/.test(key)),
    tab: tab && DIMENSION_TABS.includes(tab) ? tab : 'benchmarks',
  };
}

export function selectionQuery(selection: Partial<Selection>): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of DIMENSION_TABS) {
    const values = selection[key];
    if (values && values.length > 0) query.set(key, values.join(','));
  }
  if (selection.range && selection.range !== 'all') query.set('range', selection.range);
  if (selection.range === 'custom' || selection.range === undefined) {
    if (selection.start_time !== undefined) query.set('start_time', String(selection.start_time));
    if (selection.end_time !== undefined) query.set('end_time', String(selection.end_time));
  }
  if (selection.x_axis && selection.x_axis !== 'date_time') query.set('x_axis', selection.x_axis);
  if (selection.y_axis && selection.y_axis !== 'auto') query.set('y_axis', selection.y_axis);
  if (selection.bounds === false) query.set('bounds', 'false');
  if (selection.changes) query.set('changes', 'true');
  if (selection.zoom) query.set('zoom', selection.zoom.join(','));
  if (selection.hidden && selection.hidden.length > 0) query.set('hidden', selection.hidden.join(','));
  if (selection.tab && selection.tab !== 'benchmarks') query.set('tab', selection.tab);
  return query;
}

/** The time bounds to query: a relative range is taken from now, when the page asks. */
export function timeBounds(
  selection: Selection,
  now = Date.now(),
): { start_time?: number; end_time?: number } {
  const days = RANGES.find(([key]) => key === selection.range)?.[2];
  // Whole minutes: the query made early at page load and the explorer's own are then the same URL.
  if (days) return { start_time: Math.floor(now / 60_000) * 60_000 - days * 86_400_000 };
  if (selection.range === 'custom') {
    return {
      ...(selection.start_time !== undefined ? { start_time: selection.start_time } : {}),
      ...(selection.end_time !== undefined ? { end_time: selection.end_time } : {}),
    };
  }
  return {};
}

interface SeriesIdentity {
  readonly branch: { readonly uuid: string };
  readonly testbed: { readonly uuid: string };
  readonly benchmark: { readonly uuid: string };
  readonly measure: { readonly uuid: string };
}

/**
 * A series' identity, short enough for the URL: the places of its branch, testbed, benchmark and measure in the
 * selection's lists (`0.0.2.0`). Changing a list clears the hidden series, so the places stay meaningful.
 */
export function seriesKey(selection: Pick<Selection, DimensionTab>, series: SeriesIdentity): string {
  return [
    selection.branches.indexOf(series.branch.uuid),
    selection.testbeds.indexOf(series.testbed.uuid),
    selection.benchmarks.indexOf(series.benchmark.uuid),
    selection.measures.indexOf(series.measure.uuid),
  ].join('.');
}

/** The places in an answer of the series the selection hides. */
export function hiddenIndices(selection: Selection, series: readonly SeriesIdentity[]): Set<number> {
  const hidden = new Set(selection.hidden);
  const indices = new Set<number>();
  series.forEach((s, i) => hidden.has(seriesKey(selection, s)) && indices.add(i));
  return indices;
}

/**
 * The hidden series after the key hid the series at `indices` of an answer; hidden series the answer left out
 * stay hidden.
 */
export function hiddenKeys(
  selection: Selection,
  series: readonly SeriesIdentity[],
  indices: readonly number[],
): string[] {
  const inAnswer = new Set(series.map((s) => seriesKey(selection, s)));
  return [
    ...selection.hidden.filter((key) => !inAnswer.has(key)),
    ...indices.map((i) => seriesKey(selection, series[i]!)),
  ];
}

export function permutations(selection: Pick<Selection, DimensionTab>): number {
  return (
    selection.branches.length *
    selection.testbeds.length *
    selection.benchmarks.length *
    selection.measures.length
  );
}

export function isComplete(selection: Pick<Selection, DimensionTab>): boolean {
  return permutations(selection) > 0;
}

/** A link to the explorer showing the given dimensions. */
export function explorerHref(base: string, selection: Partial<Selection>): string {
  const query = selectionQuery(selection).toString().replace(/%2C/gi, ',');
  return query ? `${base}?${query}` : base;
}

/** The perf API's query of a selection. */
export function perfQuery(selection: Selection, now?: number): Record<string, string | number> {
  return {
    branches: selection.branches.join(','),
    testbeds: selection.testbeds.join(','),
    benchmarks: selection.benchmarks.join(','),
    measures: selection.measures.join(','),
    ...timeBounds(selection, now),
  };
}

/**
 * The explorer's perf query, as an Arrow stream or JSON (see perfWire). JSON without the threshold model of every
 * point, which the explorer does not show (boundaries and alerts stay): that model is about half of an answer
 * with thresholds, and of its parse time. Arrow never carries it, and with `fields=plot` it leaves out what the
 * explorer never reads either (metric UUIDs, end times, the names its metadata holds per series): half the bytes.
 */
export function explorerQuery(
  selection: Selection,
  wire: 'arrow' | 'json',
  now?: number,
): Record<string, string | number> {
  return {
    ...perfQuery(selection, now),
    ...(wire === 'arrow' ? { format: 'arrow', fields: 'plot' } : { threshold_models: 'false' }),
  };
}
