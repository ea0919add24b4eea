import type { Bmf, BmfMetric } from '../../core/index.js';

/** Collects a benchmark script's figures: a human table on stderr, BMF on stdout (Benchtrack tracks itself). */
export class BenchReport {
  readonly #bmf: Bmf = {};
  readonly #rows: string[][] = [];

  constructor(readonly title: string) {}

  /** Records one figure of one benchmark (measure slugs as in BMF: latency in ns, throughput in ops/s, ...). */
  add(benchmark: string, measure: string, metric: BmfMetric | number, display?: string): this {
    const value = typeof metric === 'number' ? { value: metric } : metric;
    (this.#bmf[benchmark] ??= {})[measure] = value;
    this.#rows.push([benchmark, measure, display ?? formatNumber(value.value)]);
    return this;
  }

  /** Records a ratio to a reference measured in the same run (e.g. our path / raw DuckDB). */
  ratio(benchmark: string, reference: string, ours: number, theirs: number): this {
    const ratio = ours / theirs;
    return this.add(benchmark, 'ratio', ratio, `${ratio.toFixed(2)}x of ${reference}`);
  }

  print(): void {
    const widths = [0, 1, 2].map((c) => Math.max(...this.#rows.map((r) => (r[c] ?? '').length), 8));
    const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c] ?? 8)).join('  ');
    process.stderr.write(`\n== ${this.title} ==\n${this.#rows.map(line).join('\n')}\n`);
    process.stdout.write(`${JSON.stringify(this.#bmf)}\n`);
  }
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1e6 || (Math.abs(value) < 1e-3 && value !== 0)) return value.toExponential(3);
  return Number(value.toPrecision(4)).toString();
}
