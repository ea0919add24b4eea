import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  /** The last answer, kept after a failed reload. */
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly loading: boolean;
  /** Loads again (after a change made on the page). */
  reload(): void;
}

/**
 * Runs `load` when `deps` change, aborting the previous request so a quick succession of changes (typing in a
 * search box) never shows an older answer over a newer one.
 */
export function useApi<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false }),
      // The last answer stays, so a page can keep showing it (dimmed) beside the error and a Retry.
      (error: unknown) =>
        !controller.signal.aborted &&
        setState((s) => ({
          data: s.data,
          error: error instanceof Error ? error : new Error(String(error)),
          loading: false,
        })),
    );
    return () => controller.abort();
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
