import { prefetch } from '../api/client.js';
import { PERF_PERMUTATIONS_MAX } from '../api/perf-types.js';
import { match } from '../router.js';
import { explorerQuery, parseSelection, permutations } from './selection.js';
import { preloadPlot } from './lazy-plot.js';
import { perfWire, preloadArrow } from './wire.js';

/**
 * At page load on an explorer URL, asks for the perf answer at once: it is the slowest request, and otherwise it
 * would wait for the app's code, the project and the caller's permissions. The plot's code and the Arrow reader
 * start loading too, so they are compiled by the time the answer arrives.
 */
export function prefetchExplorer(path: string, search: string): void {
  const params = match('/perf/:project', path) ?? match('/console/projects/:project/perf', path);
  if (!params) return;
  void preloadPlot();
  if (perfWire() === 'arrow') void preloadArrow();
  const selection = parseSelection(new URLSearchParams(search));
  const count = permutations(selection);
  if (count === 0 || count > PERF_PERMUTATIONS_MAX) return;
  prefetch(`/projects/${encodeURIComponent(params.project!)}/perf`, explorerQuery(selection, perfWire()));
}
