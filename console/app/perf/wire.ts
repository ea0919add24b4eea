import { api } from '../api/client.js';
import type { PerfJson } from '../api/perf-types.js';
import type * as ArrowCode from './arrow-columns.js';
import { jsonColumns, type SeriesColumns } from './columns.js';
import { explorerQuery, type Selection } from './selection.js';

/**
 * How the explorer asks for points: an Arrow stream (the default: a fifth of the bytes, decoded into typed arrays
 * with no object per point), or JSON when `localStorage['benchtrack.perf-wire']` is `json` (to compare the two:
 * bench/console-wire.bench.ts).
 */
export function perfWire(): 'arrow' | 'json' {
  try {
    return localStorage.getItem('benchtrack.perf-wire') === 'json' ? 'json' : 'arrow';
  } catch {
    return 'arrow';
  }
}

let arrow: Promise<typeof ArrowCode> | undefined;

/** Starts loading the Arrow reader (its own chunk: only the explorer needs it), so it arrives with the answer. */
export function preloadArrow(): Promise<typeof ArrowCode> {
  arrow ??= import('./arrow-columns.js');
  return arrow;
}

/** The explorer's perf answer as columns per series, over the wire perfWire chooses. */
export async function loadPerf(
  path: string,
  selection: Selection,
  signal: AbortSignal,
): Promise<SeriesColumns[]> {
  const wire = perfWire();
  if (wire === 'json')
    return jsonColumns(await api.get<PerfJson>(path, explorerQuery(selection, wire), signal));
  const [bytes, reader] = await Promise.all([
    api.bytes(path, explorerQuery(selection, wire), signal),
    preloadArrow(),
  ]);
  return reader.arrowColumns(bytes);
}
