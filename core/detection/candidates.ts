/**
 * The places worth testing: at bandwidths h = `window`, half of it, a quarter... down to `minSide`, the
 * Student t statistic between the h ranks before and the h ranks after each index (a moving sum, O(1) per index
 * from prefix sums) is computed over the series' global ranks; an index is a candidate where that statistic is
 * the largest within h/2 either side and its two-sided p-value is below about 0.0002. Small bandwidths find
 * changes between short segments, large ones small changes between long segments. Candidates closer than
 * `minSide` keep the strongest. O(n · log(window)) time.
 */
export function candidates(ranks: Float64Array, window: number, minSide: number): number[] {
  const n = ranks.length;
  const sum = new Float64Array(n + 1);
  const squares = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const r = ranks[i] as number;
    sum[i + 1] = (sum[i] as number) + r;
    squares[i + 1] = (squares[i] as number) + r * r;
  }
  const found: { index: number; strength: number }[] = [];
  const z = new Float64Array(n + 1);
  for (const h of bandwidths(window, minSide)) {
    for (let t = minSide; t <= n - minSide; t++) {
      const a = Math.max(0, t - h);
      const b = Math.min(n, t + h);
      const n1 = t - a;
      const n2 = b - t;
      const m1 = ((sum[t] as number) - (sum[a] as number)) / n1;
      const m2 = ((sum[b] as number) - (sum[t] as number)) / n2;
      const within =
        (squares[t] as number) -
        (squares[a] as number) -
        n1 * m1 * m1 +
        ((squares[b] as number) - (squares[t] as number) - n2 * m2 * m2);
      const pooled = Math.max(within, 0) / Math.max(1, n1 + n2 - 2);
      const difference = Math.abs(m2 - m1);
      z[t] = pooled > 0 ? difference / Math.sqrt(pooled * (1 / n1 + 1 / n2)) : difference > 0 ? Infinity : 0;
    }
    const critical = studentCritical(2 * h - 2);
    const reach = Math.max(1, h >> 1);
    for (let t = minSide; t <= n - minSide; t++) {
      const zt = z[t] as number;
      if (zt < critical) continue;
      let peak = true;
      for (let s = Math.max(minSide, t - reach); s <= Math.min(n - minSide, t + reach) && peak; s++)
        peak = (z[s] as number) < zt || ((z[s] as number) === zt && s >= t);
      if (peak) found.push({ index: t, strength: zt / critical });
    }
  }
  found.sort((x, y) => y.strength - x.strength || x.index - y.index);
  const kept: number[] = [];
  for (const { index } of found) if (kept.every((k) => Math.abs(k - index) >= minSide)) kept.push(index);
  return kept.sort((x, y) => x - y);
}

/** `window`, half of it, a quarter... down to `minSide`. */
function bandwidths(window: number, minSide: number): number[] {
  const out: number[] = [];
  for (let h = window; h >= minSide; h = Math.floor(h / 2)) out.push(h);
  return out;
}

/**
 * About the two-sided 0.0002 critical value of Student's t with `df` degrees of freedom (Cornish-Fisher expansion
 * around the normal's 3.7): a threshold for what to test, not a p-value.
 */
function studentCritical(df: number): number {
  const z = 3.7;
  const d = Math.max(df, 1);
  return (
    z +
    (z ** 3 + z) / (4 * d) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * d * d) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * d ** 3)
  );
}
