import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjacencyOf } from './build.ts';
import { componentTotals, findGroup } from './search.ts';
import { graphOf } from '../testing/graphs.ts';

/** Bit masks of the connected groups of a small graph (over positive edges), by brute force. */
function connectedGroups(n: number, edges: readonly (readonly number[])[]): number[] {
  const groups: number[] = [];
  for (let set = 1; set < 1 << n; set++) {
    let reached = set & -set;
    for (let grown = true; grown;) {
      grown = false;
      for (const [a = 0, b = 0, w = 0] of edges) {
        if (w <= 0 || !(set & (1 << a)) || !(set & (1 << b))) continue;
        const before = reached;
        if (reached & (1 << a)) reached |= 1 << b;
        if (reached & (1 << b)) reached |= 1 << a;
        grown ||= reached !== before;
      }
    }
    if (reached === set) groups.push(set);
  }
  return groups;
}

describe('findGroup', () => {
  it('finds a connected group of exactly the level, in walk order, or proves there is none', () => {
    const arb = fc.integer({ min: 1, max: 9 }).chain((n) =>
      fc.record({
        challenges: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: n, maxLength: n }),
        edges: fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: n - 1 }),
            fc.integer({ min: 0, max: n - 1 }),
            fc.integer({ min: 0, max: 3 }),
          ),
          { maxLength: 2 * n },
        ),
        level: fc.integer({ min: 1, max: 25 }),
        first: fc.nat(),
      }),
    );
    fc.assert(
      fc.property(arb, ({ challenges, edges, level, first }) => {
        const loops = edges.filter(([a, b]) => a !== b);
        const adj = adjacencyOf(graphOf(challenges, loops));
        const sum = (set: number) =>
          challenges.reduce((total, c, i) => total + (set & (1 << i) ? c : 0), 0);
        const possible = connectedGroups(challenges.length, loops).some((s) => sum(s) === level);
        const result = findGroup(adj, level, first % challenges.length, 1_000_000);
        if (result.found === null) {
          expect(possible).toBe(false);
          expect(result.exhausted).toBe(true);
          return;
        }
        const group = result.found;
        expect(group.reduce((total, i) => total + (challenges[i] ?? 0), 0)).toBe(level);
        expect(new Set(group).size).toBe(group.length);
        group.forEach((node, k) => {
          if (k === 0) return;
          const earlier = new Set(group.slice(0, k));
          const linked = loops.some(
            ([a, b, w]) =>
              w > 0 && ((a === node && earlier.has(b)) || (b === node && earlier.has(a))),
          );
          expect(linked).toBe(true);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('says when it ran out of budget rather than claiming there is no group', () => {
    // A path of 30 policies of challenge 2: odd levels never exist, but proving it takes steps.
    const edges = Array.from({ length: 29 }, (_, i) => [i, i + 1, 1]);
    const adj = adjacencyOf(graphOf(new Array<number>(30).fill(2), edges));
    expect(findGroup(adj, 9, 0, 5)).toEqual({ found: null, exhausted: false, steps: 6 });
    expect(findGroup(adj, 9, 0, 100_000)).toMatchObject({ found: null, exhausted: true });
    expect(findGroup(adj, 8, 17, 100_000).found).toHaveLength(4);
  });
});

describe('componentTotals', () => {
  it('gives each node the summed challenge of its component, ignoring zero-weight edges', () => {
    const adj = adjacencyOf(
      graphOf(
        [1, 2, 3, 4, 5],
        [
          [0, 1, 1],
          [1, 2, 2],
          [2, 3, 0],
        ],
      ),
    );
    expect([...componentTotals(adj)]).toEqual([6, 6, 6, 4, 5]);
  });
});
