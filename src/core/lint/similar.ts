/**
 * Pairs of word sets whose Jaccard similarity reaches a threshold, without comparing every pair.
 *
 * This is the prefix join with positional filtering (PPJoin, Xiao et al. 2008). Words are ranked
 * rarest first; two sets can only reach the threshold if they share a word among the first few
 * of each (the prefix), and the positions where they first meet bound how many more words they
 * can share, so most candidates are dropped before their sets are ever compared.
 *
 * A word in the prefix of very many sets (thousands of policies written from one template) would
 * make the join quadratic, so only the first `MAX_CANDIDATES_PER_WORD` sets that put a word in
 * their prefix are candidates through it: the earliest ones, which are the ones reported. This
 * may miss a pair that only such a word joins; it never reports a pair that is not similar.
 */
export function similarPairs(
  sets: readonly (readonly string[])[],
  threshold: number,
  minSize: number,
): [later: number, earlier: number][] {
  const ranked = rankRarestFirst(sets);
  const index = new Map<number, { set: number; position: number }[]>();
  // Overlap seen so far with each candidate; -1 once the candidate is ruled out.
  const overlap = new Int32Array(sets.length);
  const touched: number[] = [];
  const pairs: [number, number][] = [];

  ranked.forEach((x, j) => {
    if (x.length < minSize) return;
    const prefix = x.length - Math.ceil(threshold * x.length) + 1;
    for (let p = 0; p < prefix; p++) {
      const list = index.get(x[p] ?? -1) ?? [];
      for (let e = 0; e < Math.min(list.length, MAX_CANDIDATES_PER_WORD); e++) {
        const { set: i, position: q } = list[e] ?? { set: 0, position: 0 };
        if (overlap[i] === -1) continue;
        const y = ranked[i] ?? [];
        if (y.length < threshold * x.length || x.length < threshold * y.length) continue;
        if (overlap[i] === 0) touched.push(i);
        const needed = requiredOverlap(x.length, y.length, threshold);
        const bound = (overlap[i] ?? 0) + 1 + Math.min(x.length - p - 1, y.length - q - 1);
        overlap[i] = bound >= needed ? (overlap[i] ?? 0) + 1 : -1;
      }
    }
    let earliest = -1;
    for (const i of touched) {
      if ((overlap[i] ?? 0) > 0 && (earliest === -1 || i < earliest)) {
        const y = ranked[i] ?? [];
        if (sharedCount(x, y, requiredOverlap(x.length, y.length, threshold))) earliest = i;
      }
      overlap[i] = 0;
    }
    touched.length = 0;
    if (earliest !== -1) pairs.push([j, earliest]);
    for (let p = 0; p < prefix; p++) {
      const word = x[p] ?? -1;
      const list = index.get(word);
      if (list) list.push({ set: j, position: p });
      else index.set(word, [{ set: j, position: p }]);
    }
  });
  return pairs;
}

/** Earlier sets looked at through one prefix word; keeps the join near-linear on templated text. */
export const MAX_CANDIDATES_PER_WORD = 64;

/** The fewest shared words that give two sets of these sizes a Jaccard of at least `t`. */
function requiredOverlap(a: number, b: number, t: number): number {
  // |x ∩ y| / |x ∪ y| ≥ t  ⇔  |x ∩ y| ≥ t (|x| + |y|) / (1 + t); the epsilon absorbs rounding.
  return Math.ceil((t * (a + b)) / (1 + t) - 1e-9);
}

/** Whether two rank-sorted sets share at least `needed` words; stops once they cannot. */
function sharedCount(x: readonly number[], y: readonly number[], needed: number): boolean {
  let i = 0;
  let k = 0;
  let shared = 0;
  while (i < x.length && k < y.length) {
    if (shared + Math.min(x.length - i, y.length - k) < needed) return false;
    const a = x[i] ?? 0;
    const b = y[k] ?? 0;
    if (a === b) {
      shared++;
      i++;
      k++;
    } else if (a < b) i++;
    else k++;
  }
  return shared >= needed;
}

/** Each set as distinct word ranks in ascending order, rank 0 being the rarest word overall. */
function rankRarestFirst(sets: readonly (readonly string[])[]): number[][] {
  const distinct = sets.map((set) => [...new Set(set)]);
  const frequency = new Map<string, number>();
  for (const set of distinct) for (const w of set) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const order = [...frequency.keys()].sort(
    (a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const rank = new Map(order.map((w, i) => [w, i]));
  return distinct.map((set) => set.map((w) => rank.get(w) ?? 0).sort((a, b) => a - b));
}
