import { performance } from 'node:perf_hooks';

export interface Timing {
  readonly samples: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly minMs: number;
}

/** Percentile (0..1) of ascending-sorted values, linear interpolation. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = p * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

export function summarize(durationsMs: readonly number[]): Timing {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    samples: sorted.length,
    meanMs: sum / sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    minMs: sorted[0] ?? Number.NaN,
  };
}

/** Times `fn` `iterations` times after `warmup` untimed runs. */
export async function time(
  fn: () => unknown,
  { iterations = 30, warmup = 3 }: { iterations?: number; warmup?: number } = {},
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const durations: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    durations.push(performance.now() - start);
  }
  return summarize(durations);
}
