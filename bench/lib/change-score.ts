/** Detected change points scored against labelled ones (the recipe of the change-point corpus's README). */
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/**
 * One series: detections paired one to one with reference points within ±`margin`, greedily by increasing
 * distance (ties: the smaller index); an unmatched detection within `margin` of an optional point counts as
 * neither a true nor a false positive.
 */
export function scoreSeries(
  detected: readonly number[],
  truth: readonly number[],
  optional: readonly number[],
  margin: number,
): Counts {
  const pairs: { di: number; ti: number; distance: number; d: number }[] = [];
  detected.forEach((d, di) =>
    truth.forEach((t, ti) => {
      if (Math.abs(d - t) <= margin) pairs.push({ di, ti, distance: Math.abs(d - t), d });
    }),
  );
  pairs.sort((a, b) => a.distance - b.distance || a.d - b.d);
  const usedD = new Set<number>();
  const usedT = new Set<number>();
  for (const { di, ti } of pairs) {
    if (usedD.has(di) || usedT.has(ti)) continue;
    usedD.add(di);
    usedT.add(ti);
  }
  const fp = detected.filter(
    (d, di) => !usedD.has(di) && !optional.some((o) => Math.abs(o - d) <= margin),
  ).length;
  return { tp: usedT.size, fp, fn: truth.length - usedT.size };
}

/** Sums counts (micro-average over a corpus). */
export function addCounts(total: Counts, counts: Counts): Counts {
  total.tp += counts.tp;
  total.fp += counts.fp;
  total.fn += counts.fn;
  return total;
}

/** Precision, recall and F1 of summed counts; an empty denominator counts as perfect. */
export function rates({ tp, fp, fn }: Counts): { precision: number; recall: number; f1: number } {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
