/**
 * A small seeded pseudo-random generator for core, which may not touch `Math.random`. The same
 * seed always gives the same sequence, in Node, workers and the page alike.
 */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [0, n); 0 when n < 1. */
  int(n: number): number;
  /**
   * An index in [0, weights.length) drawn with probability proportional to its weight, or -1
   * when no weight is positive. Zero, negative and NaN weights are never drawn.
   */
  weighted(weights: ArrayLike<number>, length?: number): number;
  /**
   * An index in [from, to) of a running total (`cumulative[k]` = sum of the weights up to and
   * including k, from `from`), drawn by binary search; -1 when the range holds no weight.
   */
  cumulative(cumulative: ArrayLike<number>, from: number, to: number): number;
  /** Shuffles the first `length` items in place (Fisher-Yates) and returns the array. */
  shuffle<T>(items: T[], length?: number): T[];
}

/**
 * A generator from a 32-bit seed (any number: it is truncated and wrapped to 32 bits). Uses
 * mulberry32: one 32-bit state, fast, and good enough for sampling (it is not cryptographic).
 */
export function createRng(seed: number): Rng {
  let state = (Number.isFinite(seed) ? Math.trunc(seed) : 0) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => (n < 1 ? 0 : Math.floor(next() * Math.floor(n)));
  return {
    next,
    int,
    weighted(weights, length = weights.length) {
      let total = 0;
      for (let i = 0; i < length; i++) {
        const w = weights[i] ?? 0;
        if (w > 0) total += w;
      }
      if (!(total > 0)) return -1;
      let r = next() * total;
      let last = -1;
      for (let i = 0; i < length; i++) {
        const w = weights[i] ?? 0;
        if (!(w > 0)) continue;
        last = i;
        r -= w;
        if (r < 0) return i;
      }
      // Rounding can leave r a hair above zero after the last positive weight.
      return last;
    },
    cumulative(cumulative, from, to) {
      if (to <= from) return -1;
      const total = cumulative[to - 1] ?? 0;
      if (!(total > 0)) return -1;
      const r = next() * total;
      let lo = from;
      let hi = to - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((cumulative[mid] ?? 0) > r) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    },
    shuffle(items, length = items.length) {
      for (let i = length - 1; i > 0; i--) {
        const j = int(i + 1);
        const swap = items[i] as (typeof items)[number];
        items[i] = items[j] as (typeof items)[number];
        items[j] = swap;
      }
      return items;
    },
  };
}

/**
 * Weights over the indices 0..n-1 that change one at a time, drawn from in O(log n): a Fenwick
 * tree of running totals. For draws whose weights shift after every draw (favouring what was
 * drawn least), where summing all the weights each time would cost O(n).
 */
export class WeightTree {
  private readonly tree: Float64Array;
  private readonly values: Float64Array;
  private readonly top: number;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    this.values = new Float64Array(n);
    this.tree = new Float64Array(n + 1);
    this.top = n === 0 ? 0 : 2 ** Math.floor(Math.log2(n));
    for (let i = 0; i < n; i++) this.set(i, weights[i] ?? 0);
  }

  /** Sets the weight of index i (negative and NaN weights count as 0). */
  set(i: number, weight: number): void {
    const w = weight > 0 ? weight : 0;
    const delta = w - (this.values[i] ?? 0);
    this.values[i] = w;
    for (let k = i + 1; k < this.tree.length; k += k & -k)
      this.tree[k] = (this.tree[k] ?? 0) + delta;
  }

  /** An index drawn with probability proportional to its weight; -1 when no weight is positive. */
  draw(rng: Rng): number {
    let total = 0;
    for (let k = this.values.length; k > 0; k -= k & -k) total += this.tree[k] ?? 0;
    if (!(total > 0)) return -1;
    let r = rng.next() * total;
    let pos = 0;
    for (let step = this.top; step > 0; step >>= 1) {
      const next = pos + step;
      if (next < this.tree.length && (this.tree[next] ?? 0) <= r) {
        pos = next;
        r -= this.tree[next] ?? 0;
      }
    }
    // Rounding in the running totals can land on a zero weight at the very end: draw exactly.
    return (this.values[pos] ?? 0) > 0 ? pos : rng.weighted(this.values);
  }
}
