import type { PreparedSeries } from './points.js';
import type { Scale } from './scale.js';

/** Pixel points as a flat array: x0, y0, x1, y1, ... in ascending x. */
export type Chain = number[];

/** One decimal of a pixel is finer than anti-aliasing shows, and keeps the SVG short and deterministic. */
export function px(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/**
 * Reduces a chain to at most four points per pixel column (first, lowest, highest, last, in their order): a line
 * through them covers the same pixels as a line through all of them (M4 aggregation, Jugel et al., VLDB 2014),
 * so a series of 100,000 points costs the rasterizer what 4 x width points do.
 */
export function decimate(chain: Chain): Chain {
  const n = chain.length / 2;
  const out: Chain = [];
  let i = 0;
  while (i < n) {
    const column = Math.floor(chain[2 * i] as number);
    let last = i;
    let low = i;
    let high = i;
    while (last + 1 < n && Math.floor(chain[2 * (last + 1)] as number) === column) {
      last++;
      if ((chain[2 * last + 1] as number) < (chain[2 * low + 1] as number)) low = last;
      if ((chain[2 * last + 1] as number) > (chain[2 * high + 1] as number)) high = last;
    }
    let previous = -1;
    for (const k of [i, Math.min(low, high), Math.max(low, high), last]) {
      if (k === previous) continue;
      out.push(chain[2 * k] as number, chain[2 * k + 1] as number);
      previous = k;
    }
    i = last + 1;
  }
  return out;
}

/**
 * Drops the points of a chain that lie within `tolerance` pixels of the line through their neighbours that are
 * kept (Ramer-Douglas-Peucker). Boundary limits are smooth, so most of their points go; the rasterizer's work
 * shrinks with them while the drawn line moves by less than the tolerance.
 */
export function simplify(chain: Chain, tolerance: number): Chain {
  const n = chain.length / 2;
  if (n <= 2) return chain;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const last = stack.pop() as number;
    const first = stack.pop() as number;
    const [index, distance] = farthest(chain, first, last);
    if (distance > tolerance) {
      keep[index] = 1;
      stack.push(first, index, index, last);
    }
  }
  const out: Chain = [];
  for (let k = 0; k < n; k++) if (keep[k]) out.push(chain[2 * k] as number, chain[2 * k + 1] as number);
  return out;
}

/** The point strictly between `first` and `last` farthest from the segment joining them, and its distance. */
function farthest(chain: Chain, first: number, last: number): [number, number] {
  const x0 = chain[2 * first] as number;
  const y0 = chain[2 * first + 1] as number;
  const dx = (chain[2 * last] as number) - x0;
  const dy = (chain[2 * last + 1] as number) - y0;
  const length = Math.hypot(dx, dy);
  let index = first;
  let best = -1;
  for (let k = first + 1; k < last; k++) {
    const px0 = (chain[2 * k] as number) - x0;
    const py0 = (chain[2 * k + 1] as number) - y0;
    const distance = length === 0 ? Math.hypot(px0, py0) : Math.abs(px0 * dy - py0 * dx) / length;
    if (distance > best) {
      best = distance;
      index = k;
    }
  }
  return [index, best];
}

/**
 * The pixel chains of one column of a series (values, lower or upper limits). Undrawable entries (NaN,
 * infinite, or not above zero on a log axis) are skipped; with `split` they also end a chain, so a limit line
 * stops where the boundary is missing instead of bridging the gap. Chains are decimated and simplified.
 */
export function chains(
  series: PreparedSeries,
  column: Float64Array,
  x: Scale,
  y: Scale,
  split: boolean,
  tolerance: number,
): Chain[] {
  const out: Chain[] = [];
  let current: Chain = [];
  for (const i of series.order) {
    const py = y.map(column[i] as number);
    if (!Number.isFinite(py)) {
      if (split && current.length > 0) {
        out.push(current);
        current = [];
      }
      continue;
    }
    current.push(x.map(series.source.x[i] as number), py);
  }
  if (current.length > 0) out.push(current);
  return out.map((chain) => simplify(decimate(chain), tolerance));
}

/** Path data of a polyline: `M x,y x,y ...` (coordinates after the first pair are implicit line-tos). */
export function polyline(chain: Chain): string {
  const parts: string[] = [];
  for (let k = 0; k < chain.length; k += 2)
    parts.push(`${px(chain[k] as number)},${px(chain[k + 1] as number)}`);
  return `M${parts.join(' ')}`;
}

/**
 * A long chain cut into pieces of at most `size` points, each starting where the previous one ended. librsvg
 * (through cairo) rasterizes a stroke's outline as one polygon, and the cost grows faster than the number of
 * edges for a jagged line; separate short paths draw the same pixels faster (see bench/plot-image.bench.ts).
 */
export function pieces(chain: Chain, size: number): Chain[] {
  const points = chain.length / 2;
  if (points <= size) return [chain];
  const out: Chain[] = [];
  for (let start = 0; start < points - 1; start += size - 1) {
    out.push(chain.slice(2 * start, 2 * Math.min(points, start + size)));
  }
  return out;
}

/**
 * The area between a series' lower and upper limits, where both are drawable, as path data: one closed
 * subpath per run of consecutive points (along the upper limit, back along the lower one).
 */
export function bandPath(series: PreparedSeries, x: Scale, y: Scale, tolerance: number): string {
  const { lower, upper } = series.source;
  if (!lower || !upper) return '';
  const runs: [Chain, Chain][] = [];
  let run: [Chain, Chain] | undefined;
  for (const i of series.order) {
    const top = y.map(upper[i] as number);
    const bottom = y.map(lower[i] as number);
    if (!Number.isFinite(top) || !Number.isFinite(bottom)) {
      run = undefined;
      continue;
    }
    if (!run) runs.push((run = [[], []]));
    const px0 = x.map(series.source.x[i] as number);
    run[0].push(px0, top);
    run[1].push(px0, bottom);
  }
  const outline = (chain: Chain) => simplify(decimate(chain), tolerance);
  return runs.map(([top, bottom]) => `${polyline(outline(top))} ${reversed(outline(bottom))}Z`).join(' ');
}

/** The points of a chain in reverse order, as line-to coordinates continuing a path. */
function reversed(chain: Chain): string {
  const parts: string[] = [];
  for (let k = chain.length - 2; k >= 0; k -= 2)
    parts.push(`${px(chain[k] as number)},${px(chain[k + 1] as number)}`);
  return `L${parts.join(' ')}`;
}

/** Pixel positions of the points that raised an alert and can be drawn. */
export function alertPoints(series: PreparedSeries, x: Scale, y: Scale): Chain {
  const { alert } = series.source;
  const out: Chain = [];
  if (!alert) return out;
  for (const i of series.order) {
    if (alert[i] === 0) continue;
    const py = y.map(series.source.y[i] as number);
    if (Number.isFinite(py)) out.push(x.map(series.source.x[i] as number), py);
  }
  return out;
}
