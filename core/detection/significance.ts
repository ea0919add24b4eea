import { createRequire } from 'node:module';

type Unary = (x: number) => number;
let erfcFn: Unary | undefined;
let erfcinvFn: Unary | undefined;

/** @stdlib's erfc and its inverse, loaded at first use (most programs that import core never detect). */
function erfc(x: number): number {
  erfcFn ??= createRequire(import.meta.url)('@stdlib/math-base-special-erfc') as Unary;
  return erfcFn(x);
}

function erfcinv(x: number): number {
  erfcinvFn ??= createRequire(import.meta.url)('@stdlib/math-base-special-erfcinv') as Unary;
  return erfcinvFn(x);
}

/** P(|Z| >= z) for a standard normal Z. */
export function normalTwoSided(z: number): number {
  return erfc(Math.abs(z) / Math.SQRT2);
}

/** The |z| whose two-sided normal tail is `p` (0 for p >= 1, Infinity for p <= 0). */
export function normalEquivalent(p: number): number {
  if (p >= 1) return 0;
  if (p <= 0) return Number.POSITIVE_INFINITY;
  return Math.SQRT2 * erfcinv(p);
}

/** Gauss-Legendre nodes and weights on [-1, 1], 10 points. */
const NODES = [
  0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717,
];
const WEIGHTS = [
  0.2955242247147529, 0.2692667193099963, 0.219086362515982, 0.1494513491505806, 0.0666713443086881,
];

/**
 * The p-value of the largest of the standardized two-sample statistics over every split of `points` values
 * that leaves at least `minSide` on each side, when that largest one is `z` (its two-sided normal p-value
 * computed as if the split had been fixed in advance). Without this correction, a split chosen as the best of
 * many looks far more significant than it is.
 *
 * Under no change, the standardized statistic along the splits is a standardized Brownian bridge, an
 * Ornstein-Uhlenbeck process in log-odds time; the chance that it exceeds z somewhere is the chance at the first
 * split plus the expected number of upcrossings (Siegmund 1988; James, James and Siegmund 1987):
 * `P ≈ 2(1 − Φ(z)) + z φ(z) ∫ ν(z / √(N u(1 − u))) du / (u(1 − u))` over u from minSide/N to 1 − minSide/N, with
 * Siegmund's correction for a discrete set of splits, ν(x) ≈ exp(−0.583 x). Against simulation (a million
 * shuffles per size) it is within 10% for Gaussian statistics and conservative for rank statistics (2x at 100
 * points and p = 0.001; more for fewer points, whose rank statistics have lighter tails than the normal).
 */
export function scanPValue(z: number, points: number, minSide: number): number {
  const c = Math.abs(z);
  if (!(c > 0)) return 1;
  const single = normalTwoSided(c);
  const span = Math.log((points - minSide) / minSide);
  if (!(span > 0) || c === Number.POSITIVE_INFINITY) return Math.min(1, single);
  // u = 1 / (1 + e^-v): du / (u(1 − u)) = dv and u(1 − u) = 1 / (4 cosh²(v/2)); the integrand is even in v
  const beta = (2 * 0.583 * c) / Math.sqrt(points);
  let integral = 0;
  for (let k = 0; k < NODES.length; k++) {
    for (const sign of [-1, 1]) {
      const v = (span / 2) * (1 + sign * (NODES[k] as number));
      integral += (WEIGHTS[k] as number) * Math.exp(-beta * Math.cosh(v / 2));
    }
  }
  integral *= span; // (span / 2) for the interval, times 2 for the mirrored half
  const density = Math.exp((-c * c) / 2) / Math.sqrt(2 * Math.PI);
  return Math.min(1, single + c * density * integral);
}

/**
 * The exact two-sided p-value of a Mann-Whitney count: `u` pairs out of `small` · `large` fall on the less
 * common side (u = the smaller of U and small · large − U), with no ties. The number of arrangements of the
 * two samples with U = j is the coefficient of q^j in the Gaussian binomial coefficient [small + large choose
 * small]_q = Π_{i=1..small} (1 − q^(large+i)) / (1 − q^i), expanded here up to q^u: O(small · u) operations.
 * The normal approximation is far too conservative when one side has a handful of points (3 points above 50
 * others: exact 2/C(53, 3) = 9e-5, normal 3e-3).
 */
export function exactRankSumPValue(u: number, small: number, large: number): number {
  const degree = Math.floor(u);
  const counts = new Float64Array(degree + 1);
  counts[0] = 1;
  let total = 1;
  for (let i = 1; i <= small; i++) {
    const up = large + i;
    for (let j = degree; j >= up; j--) counts[j]! -= counts[j - up]!;
    for (let j = i; j <= degree; j++) counts[j]! += counts[j - i]!;
    total = (total * up) / i;
  }
  let tail = 0;
  for (let j = 0; j <= degree; j++) tail += counts[j]!;
  return Math.min(1, (2 * tail) / total);
}
