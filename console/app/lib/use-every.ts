import { useEffect, useRef } from 'preact/hooks';

/** Calls `tick` every `ms` while `active` (a page that follows something still changing); the latest `tick` runs. */
export function useEvery(tick: () => void, ms: number, active = true): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}
