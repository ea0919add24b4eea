/** The best split of one interval: `index` is the first point after it, `qhat` its divergence. */
export interface Candidate {
  readonly index: number;
  readonly qhat: number;
}

/**
 * E-divisive means (Matteson and James 2014, α = 1) over one window of a series: the energy divergence
 * Q̂(τ, κ) between `z[s .. τ)` and `z[τ .. κ)`, maximised over both τ and κ (κ free, as Otava does since 2025).
 * The window's pair distances are summed once: `vertical[τ]` = Σ_{i<τ} |z_i − z_τ| and `horizontal` row t =
 * running sums Σ_{t<j<κ} |z_t − z_j|. An interval [s, stop) then costs O((stop − s)²) time and memory. Sums
 * and coefficients are formed in the order Otava's numpy code forms them, so equal inputs give equal bits.
 */
export class WindowDivergence {
  readonly #z: Float64Array;
  readonly #vertical: Float64Array;
  /** Row t holds H(t, κ) at column κ (zero for κ <= t + 1); the row stride is length + 1. */
  readonly #horizontal: Float64Array;

  constructor(z: Float64Array) {
    const n = z.length;
    this.#z = z;
    this.#vertical = new Float64Array(n);
    this.#horizontal = new Float64Array(n * (n + 1));
    for (let tau = 1; tau < n; tau++) {
      let sum = 0;
      for (let i = 0; i < tau; i++) sum += Math.abs(z[i]! - z[tau]!);
      this.#vertical[tau] = sum;
    }
    for (let t = 0; t < n; t++) {
      let sum = 0;
      const row = t * (n + 1);
      for (let kappa = t + 2; kappa <= n; kappa++) {
        sum += Math.abs(z[t]! - z[kappa - 1]!);
        this.#horizontal[row + kappa] = sum;
      }
    }
  }

  get length(): number {
    return this.#z.length;
  }

  /** The best split of `[s, stop)` (at least two points): the first maximum in (τ, κ) order. */
  best(s: number, stop: number): Candidate {
    const z = this.#z;
    const n = z.length;
    const m = stop - s - 1;
    // cumulative within-left sums: cumV[k] = Σ_{τ' = s+1}^{s+1+k} Σ_{s <= i < τ'} |z_i − z_τ'|
    const cumV = new Float64Array(m);
    let running = 0;
    for (let k = 0; k < m; k++) {
      const tau = s + 1 + k;
      let before = 0;
      for (let i = 0; i < s; i++) before += Math.abs(z[i]! - z[tau]!);
      running += this.#vertical[tau]! - before;
      cumV[k] = running;
    }
    const down = new Float64Array(m);
    const up = new Float64Array(m);
    let best = -Infinity;
    let bestI = 0;
    let bestJ = 0;
    for (let j = 0; j < m; j++) {
      const kappa = s + 2 + j;
      let acc = 0;
      for (let i = 0; i < m; i++) down[i] = acc += this.#h(s + i, kappa, n);
      acc = 0;
      for (let i = m - 1; i >= 1; i--) up[i - 1] = acc += this.#h(s + i, kappa, n);
      for (let i = 0; i <= j; i++) {
        const tau = s + 1 + i;
        const a = (2 / (kappa - s)) * (down[i]! - (i > 0 ? cumV[i - 1]! : 0));
        const b = i > 0 ? ((2 * (kappa - tau)) / ((kappa - s) * (tau - s - 1))) * cumV[i - 1]! : 0;
        const c = i < j ? ((2 * (tau - s)) / ((kappa - s) * (kappa - tau - 1))) * up[i]! : 0;
        const q = a - b - c;
        if (q > best || (q === best && (i < bestI || (i === bestI && j < bestJ)))) {
          best = q;
          bestI = i;
          bestJ = j;
        }
      }
    }
    return { index: s + 1 + bestI, qhat: best };
  }

  #h(t: number, kappa: number, n: number): number {
    return kappa >= t + 2 ? this.#horizontal[t * (n + 1) + kappa]! : 0;
  }
}
