/**
 * Benchmark-name suffixes that keep a benchmark's boundary but silence its alerts (the reference's
 * `-bencher-ignore` family, renamed): snake, Pascal and kebab case, so every harness naming style has one.
 */
export const IGNORE_SUFFIXES = ['_benchtrack_ignore', 'BenchtrackIgnore', '-benchtrack-ignore'] as const;

export interface IgnoreResult {
  /** The name to store and look up: the suffix removed. */
  readonly name: string;
  /** True when the name carried a suffix: compute and store the boundary, raise no alert. */
  readonly ignored: boolean;
}

/**
 * Strips an ignore suffix from a benchmark name. A name that is nothing but a suffix is kept as it is and not
 * ignored: stripping would leave an empty name, which no benchmark may have.
 */
export function stripIgnoreSuffix(name: string): IgnoreResult {
  for (const suffix of IGNORE_SUFFIXES) {
    if (name.length > suffix.length && name.endsWith(suffix)) {
      return { name: name.slice(0, -suffix.length), ignored: true };
    }
  }
  return { name, ignored: false };
}
