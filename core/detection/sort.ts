/**
 * Sorts `keys[from .. to)` ascending in place, moving `carry` (when given) along with them: a quicksort with
 * median-of-three pivots and insertion sort below 16 elements. The detector sorts many short windows; for those
 * this is faster than TypedArray.prototype.sort, and it sorts an index alongside the values without a
 * comparison callback. Keys must not be NaN.
 */
export function sortWith(keys: Float64Array, carry: Uint32Array | null, from = 0, to = keys.length): void {
  let lo = from;
  let hi = to;
  while (hi - lo > 16) {
    const a = keys[lo] as number;
    const b = keys[(lo + hi) >> 1] as number;
    const c = keys[hi - 1] as number;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi - 1;
    while (i <= j) {
      while ((keys[i] as number) < pivot) i++;
      while ((keys[j] as number) > pivot) j--;
      if (i <= j) {
        swap(keys, carry, i, j);
        i++;
        j--;
      }
    }
    // recurse into the smaller part, loop on the larger: O(log n) stack
    if (j + 1 - lo < hi - i) {
      sortWith(keys, carry, lo, j + 1);
      lo = i;
    } else {
      sortWith(keys, carry, i, hi);
      hi = j + 1;
    }
  }
  for (let i = lo + 1; i < hi; i++) {
    const key = keys[i] as number;
    const carried = carry === null ? 0 : (carry[i] as number);
    let j = i - 1;
    while (j >= lo && (keys[j] as number) > key) {
      keys[j + 1] = keys[j] as number;
      if (carry !== null) carry[j + 1] = carry[j] as number;
      j--;
    }
    keys[j + 1] = key;
    if (carry !== null) carry[j + 1] = carried;
  }
}

function swap(keys: Float64Array, carry: Uint32Array | null, i: number, j: number): void {
  const key = keys[i] as number;
  keys[i] = keys[j] as number;
  keys[j] = key;
  if (carry !== null) {
    const c = carry[i] as number;
    carry[i] = carry[j] as number;
    carry[j] = c;
  }
}

/** The median of `values[from .. to)`; reorders them. */
export function medianOf(values: Float64Array, from = 0, to = values.length): number {
  sortWith(values, null, from, to);
  const n = to - from;
  const half = from + (n >> 1);
  return n % 2 === 1
    ? (values[half] as number)
    : ((values[half - 1] as number) + (values[half] as number)) / 2;
}
