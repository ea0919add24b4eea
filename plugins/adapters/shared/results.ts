import { setOwn, type Bmf, type BmfMetric } from '../../../kit/index.js';
import { validName } from './text.js';

/**
 * Collects benchmarks the way the reference's result map does: a repeated benchmark name merges into the
 * earlier entry (a repeated measure overwrites), invalid names are skipped, and no benchmark at all means
 * "no benchmarks found" (`null`).
 */
export class ResultsBuilder {
  readonly #bmf: Bmf = {};
  #count = 0;

  /** Adds (or merges into) a benchmark; returns false when the name is not a valid benchmark name. */
  benchmark(name: string, measures: Iterable<readonly [string, BmfMetric]> = []): boolean {
    if (!validName(name)) return false;
    let target = Object.hasOwn(this.#bmf, name) ? this.#bmf[name] : undefined;
    if (target === undefined) {
      target = {};
      setOwn(this.#bmf, name, target);
      this.#count++;
    }
    for (const [measure, metric] of measures) if (finite(metric)) setOwn(target, measure, metric);
    return true;
  }

  metric(name: string, measure: string, metric: BmfMetric): boolean {
    return this.benchmark(name, [[measure, metric]]);
  }

  get size(): number {
    return this.#count;
  }

  build(): Bmf | null {
    return this.#count === 0 ? null : this.#bmf;
  }
}

/**
 * BMF numbers are finite. A unit conversion can overflow (1e300 s in ns), and such a measure is dropped
 * rather than sent as a value the API would reject.
 */
function finite({ value, lower_value, upper_value }: BmfMetric): boolean {
  return (
    Number.isFinite(value) &&
    (lower_value === undefined || Number.isFinite(lower_value)) &&
    (upper_value === undefined || Number.isFinite(upper_value))
  );
}

/** A metric with bounds `value ∓ spread`, computed after unit conversion like the reference. */
export function spread(value: number, delta: number): BmfMetric {
  return { value, lower_value: value - delta, upper_value: value + delta };
}
