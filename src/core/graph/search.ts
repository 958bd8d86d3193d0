import type { Adjacency } from './build.ts';

/** What {@link findGroup} found: the group in an order a walk could visit it, or why not. */
export type GroupSearch = (
  { readonly found: readonly number[] } | { readonly found: null; readonly exhausted: boolean }
) & {
  /** The steps the search took, to charge against a budget shared by many searches. */
  readonly steps: number;
};

/**
 * The total challenge of each node's connected component (over positive-weight edges): a walk
 * can never reach a level above its start's component total.
 */
export function componentTotals(adj: Adjacency): Int32Array {
  const n = adj.ids.length;
  const component = new Int32Array(n).fill(-1);
  const totals: number[] = [];
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (component[s] !== -1) continue;
    const c = totals.length;
    let total = 0;
    component[s] = c;
    stack.push(s);
    while (stack.length > 0) {
      const u = stack.pop() ?? 0;
      total += adj.challenge[u] ?? 0;
      for (let k = adj.offset[u] ?? 0; k < (adj.offset[u + 1] ?? 0); k++) {
        const v = adj.target[k] ?? 0;
        if (component[v] === -1) {
          component[v] = c;
          stack.push(v);
        }
      }
    }
    totals.push(total);
  }
  return Int32Array.from(component, (c) => totals[c] ?? 0);
}

/**
 * Looks for a connected group of nodes whose challenges sum to exactly `level`, by enumerating
 * connected groups (ESU, Wernicke 2006: each group is seen once, from its lowest-ranked node)
 * and cutting every branch whose sum passes the level. Nodes are ranked from `first` onwards
 * (wrapping), so different calls start in different places. Each node after the first is
 * adjacent to an earlier one. Gives up after `budget` steps: `exhausted` tells whether the
 * answer "none" is proven (true) or only "none found in time" (false).
 */
export function findGroup(
  adj: Adjacency,
  level: number,
  first: number,
  budget: number,
): GroupSearch {
  const n = adj.ids.length;
  const { challenge, offset, target } = adj;
  const rank = (u: number) => (u - first + n) % n;
  const inGroup = new Uint8Array(n);
  // How many group members each node is adjacent to: > 0 means "a neighbour of the group".
  const touching = new Int32Array(n);
  const seen = new Int32Array(n);
  let stamp = 0;
  let steps = 0;
  const group: number[] = [];

  const enter = (u: number) => {
    group.push(u);
    inGroup[u] = 1;
    for (let k = offset[u] ?? 0; k < (offset[u + 1] ?? 0); k++) {
      const v = target[k] ?? 0;
      touching[v] = (touching[v] ?? 0) + 1;
    }
  };
  const leave = (u: number) => {
    group.pop();
    inGroup[u] = 0;
    for (let k = offset[u] ?? 0; k < (offset[u + 1] ?? 0); k++) {
      const v = target[k] ?? 0;
      touching[v] = (touching[v] ?? 0) - 1;
    }
  };
  // Neighbours of w ranked after the root that are neither in the group nor next to it.
  const exclusive = (w: number, root: number, into: number[]) => {
    stamp++;
    for (let k = offset[w] ?? 0; k < (offset[w + 1] ?? 0); k++) {
      const u = target[k] ?? 0;
      if (seen[u] === stamp || rank(u) <= rank(root)) continue;
      seen[u] = stamp;
      if (inGroup[u] === 0 && touching[u] === 0 && u !== w) into.push(u);
    }
  };
  const extend = (extension: number[], sum: number, root: number): boolean | null => {
    if (sum === level) return true;
    if (++steps > budget) return null;
    while (extension.length > 0) {
      const w = extension.pop() ?? 0;
      if (sum + (challenge[w] ?? 0) > level) continue;
      const next = [...extension];
      exclusive(w, root, next);
      enter(w);
      const result = extend(next, sum + (challenge[w] ?? 0), root);
      if (result !== false) return result;
      leave(w);
    }
    return false;
  };

  for (let r = 0; r < n; r++) {
    const root = (first + r) % n;
    if ((challenge[root] ?? 0) > level) continue;
    const extension: number[] = [];
    exclusive(root, root, extension);
    enter(root);
    const result = extend(extension, challenge[root] ?? 0, root);
    if (result === true) return { found: [...group], steps };
    if (result === null) return { found: null, exhausted: false, steps };
    leave(root);
  }
  return { found: null, exhausted: true, steps };
}
