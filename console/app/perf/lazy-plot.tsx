import type { ComponentProps } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading } from '../components/status.js';

import type * as PlotCode from './perf-plot.js';

type PlotModule = typeof PlotCode;
let module: PlotModule | undefined;
let loading: Promise<PlotModule> | undefined;

/**
 * Starts loading the plot code (uPlot is two thirds of the app's size): pages without plots never load it,
 * and the explorer asks for it at once so it arrives while the perf query runs.
 */
export function preloadPlot(): Promise<PlotModule> {
  loading ??= import('./perf-plot.js').then((m) => (module = m));
  return loading;
}

export function PerfPlot(props: ComponentProps<PlotModule['PerfPlot']>) {
  const [loaded, setLoaded] = useState(module);
  const [error, setError] = useState<Error>();
  useEffect(() => {
    if (!loaded) preloadPlot().then(setLoaded, (e: Error) => setError(e));
  }, []);
  if (error) return <p class="error">The plot could not be loaded ({error.message}); reload the page.</p>;
  return loaded ? <loaded.PerfPlot {...props} /> : <Loading what="Loading the plot" />;
}
