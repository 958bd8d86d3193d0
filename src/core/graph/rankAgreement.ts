import type { HeuristicPolicy } from './heuristic.ts';
import { heuristicEdges } from './heuristic.ts';

/** Ranks from 1, ties sharing the average of the ranks they span. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((x, y) => (values[x] ?? 0) - (values[y] ?? 0));
  const out = new Array<number>(values.length).fill(0);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    const value = values[order[start] ?? 0];
    while (end < order.length && values[order[end] ?? 0] === value) end++;
    const rank = (start + end + 1) / 2;
    for (let k = start; k < end; k++) out[order[k] ?? 0] = rank;
    start = end;
  }
  return out;
}

/**
 * Spearman's rank correlation of two equally long lists (Pearson's over their ranks, ties
 * averaged), from -1 to 1; 0 when either list has no spread or there are fewer than two values.
 */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const rx = ranks(xs.slice(0, n));
  const ry = ranks(ys.slice(0, n));
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (rx[i] ?? 0) - mean;
    const dy = (ry[i] ?? 0) - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/**
 * How well the heuristic edges rank pairs the way a rater does: Spearman's correlation of the
 * heuristic weight of each rated pair (0 where the heuristic draws no edge) with its rating.
 * @param rated pairs of policy ids with a reference weight 0-10 (a model's, or a person's).
 */
export function heuristicRankAgreement(
  policies: readonly HeuristicPolicy[],
  rated: readonly (readonly [string, string, number])[],
): number {
  const weights = new Map<string, number>();
  for (const edge of heuristicEdges(policies)) weights.set(edge.id, edge.weight);
  const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const heuristic = rated.map(([a, b]) => weights.get(key(a, b)) ?? 0);
  return spearman(
    heuristic,
    rated.map(([, , w]) => w),
  );
}
