import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { samplePolicies, sampleWithReport } from './sample.ts';
import { graphOf as graphOfTest } from '../testing/graphs.ts';
import type { PolicyGraph, PolicySample, SampleOptions } from './types.ts';

/** Node i is `p000`, `p001`, ...: ids that sort in index order. */
const graphOf = (challenges: readonly number[], edges: readonly (readonly number[])[]) =>
  graphOfTest(challenges, edges, (i) => `p${String(i).padStart(3, '0')}`);

/** A ring of `n` policies, each linked to the next five, with varied weights (some zero). */
function ring(n: number): PolicyGraph {
  const edges: number[][] = [];
  for (let i = 0; i < n; i++)
    for (let k = 1; k <= 5; k++) edges.push([i, (i + k) % n, (i * k) % 11]);
  return graphOf(
    Array.from({ length: n }, (_, i) => (i % 5) + 1),
    edges,
  );
}

const levelCounts = (samples: readonly PolicySample[]) => {
  const counts = new Map<number, number>();
  for (const s of samples) counts.set(s.level, (counts.get(s.level) ?? 0) + 1);
  return counts;
};

const linkCache = new WeakMap<PolicyGraph, Set<string>>();

/** Whether every policy after the first shares a positive edge with an earlier one. */
function walkable(graph: PolicyGraph, sample: PolicySample): boolean {
  let linked = linkCache.get(graph);
  if (linked === undefined) {
    linked = new Set(
      graph.edges
        .filter((e) => e.weight > 0)
        .flatMap((e) => [`${e.source} ${e.target}`, `${e.target} ${e.source}`]),
    );
    linkCache.set(graph, linked);
  }
  const links = linked;
  return sample.policies.every(
    (id, k) =>
      k === 0 || sample.policies.slice(0, k).some((earlier) => links.has(`${earlier} ${id}`)),
  );
}

const options = (extra: Partial<SampleOptions> = {}): SampleOptions => ({
  seed: 1,
  count: 100,
  levels: { min: 5, max: 10 },
  ...extra,
});

describe('samplePolicies', () => {
  const graph = ring(300);

  it('gives the same samples for the same seed, and others for another seed', () => {
    const first = samplePolicies(graph, options({ seed: 7 }));
    expect(samplePolicies(graph, options({ seed: 7 }))).toEqual(first);
    expect(samplePolicies(graph, options({ seed: 8 }))).not.toEqual(first);
    expect(first).toHaveLength(100);
  });

  it('spreads 1,000 samples evenly over the band, each exactly at its target', () => {
    const samples = samplePolicies(graph, options({ count: 1000, levels: { min: 3, max: 12 } }));
    expect(samples).toHaveLength(1000);
    const counts = levelCounts(samples);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Math.max(...counts.values()) - Math.min(...counts.values())).toBeLessThanOrEqual(1);
    const challenge = new Map(graph.nodes.map((n) => [n.id, n.challenge]));
    for (const s of samples) {
      expect(s.level).toBe(s.target);
      expect(s.policies.reduce((sum, id) => sum + (challenge.get(id) ?? 99), 0)).toBe(s.level);
      expect(new Set(s.policies).size).toBe(s.policies.length);
      expect(walkable(graph, s)).toBe(true);
    }
  });

  it('follows heavier edges more often', () => {
    // From p0 (challenge 1), p1 weighs 9 and p2 weighs 1; both have challenge 1. Target 2.
    const star = graphOf(
      [1, 1, 1, 5],
      [
        [0, 1, 9],
        [0, 2, 1],
        [1, 3, 1],
        [2, 3, 1],
      ],
    );
    const samples = samplePolicies(star, options({ count: 2000, levels: { min: 2, max: 2 } }));
    const fromP0 = samples.filter((s) => s.policies[0] === 'p000').map((s) => s.policies[1]);
    const heavy = fromP0.filter((id) => id === 'p001').length / fromP0.length;
    expect(heavy).toBeGreaterThan(0.85);
    expect(heavy).toBeLessThan(0.95);
  });

  it('never takes a zero-weight edge, and says which levels cannot be reached', () => {
    const pair = graphOf(
      [5, 5, 2],
      [
        [0, 1, 4],
        [1, 2, 0],
      ],
    );
    const report = sampleWithReport(pair, options({ count: 40, levels: { min: 5, max: 12 } }));
    expect(levelCounts(report.samples)).toEqual(
      new Map([
        [5, 20],
        [10, 20],
      ]),
    );
    expect(report.unreachable).toEqual([
      { from: 6, to: 9, reason: 'no connected group of policies has this level' },
      { from: 11, to: 12, reason: 'the largest connected group of policies reaches level 10' },
    ]);
    const even = graphOf(
      [2, 4, 2],
      [
        [0, 1, 1],
        [1, 2, 1],
      ],
    );
    const odd = sampleWithReport(even, options({ count: 30, levels: { min: 3, max: 5 } }));
    expect(levelCounts(odd.samples)).toEqual(new Map([[4, 30]]));
    expect(odd.unreachable.map((u) => [u.from, u.reason])).toEqual([
      [3, 'levels are always multiples of 2, as every challenge is'],
      [5, 'levels are always multiples of 2, as every challenge is'],
    ]);
    // A huge band costs nothing beyond what the graph can reach.
    expect(
      sampleWithReport(graphOf([], []), options({ levels: { min: 1, max: 1e12 } })).unreachable,
    ).toEqual([{ from: 1, to: 1e12, reason: 'the graph has no policies' }]);
    expect(samplePolicies(pair, options({ count: 0 }))).toEqual([]);
  });

  it('rejects a count or band that makes no sense', () => {
    expect(() => samplePolicies(graph, options({ count: -1 }))).toThrow(RangeError);
    expect(() => samplePolicies(graph, options({ count: 1.5 }))).toThrow(RangeError);
    expect(() => samplePolicies(graph, options({ levels: { min: 6, max: 5 } }))).toThrow(
      RangeError,
    );
    expect(() => samplePolicies(graph, options({ levels: { min: 1, max: Infinity } }))).toThrow(
      RangeError,
    );
  });

  it('with preferUncovered, moves samples toward policies that runs and earlier samples missed', () => {
    const tested = new Map(
      graph.nodes.filter((_, i) => i % 2 === 0).map((n) => [n.id, { tested: 20, failed: 0 }]),
    );
    const measure = (extra: Partial<SampleOptions>) => {
      const slots = samplePolicies(graph, options({ count: 150, ...extra })).flatMap(
        (s) => s.policies,
      );
      const counts = new Map<string, number>();
      for (const id of slots) counts.set(id, (counts.get(id) ?? 0) + 1);
      return {
        untested: slots.filter((id) => !tested.has(id)).length / slots.length,
        distinct: counts.size,
        most: Math.max(...counts.values()),
      };
    };
    // Coverage from earlier runs: the tested half is left alone.
    expect(measure({ coverage: tested }).untested).toBeLessThan(0.6);
    expect(measure({ coverage: tested, preferUncovered: true }).untested).toBeGreaterThan(0.8);
    // Earlier samples of the same call: later ones go elsewhere, so more policies get a turn.
    const plain = measure({});
    const preferred = measure({ preferUncovered: true });
    expect(preferred.distinct).toBeGreaterThan(plain.distinct * 1.2);
    expect(preferred.most).toBeLessThan(plain.most);
  });

  it('with preferUncovered, covers more distinct pairs', () => {
    // Six policies of challenge 1, all linked alike: level 2 means a pair, 15 pairs in all.
    const edges: number[][] = [];
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) edges.push([i, j, 5]);
    const clique = graphOf([1, 1, 1, 1, 1, 1], edges);
    const pairs = (prefer: boolean) => {
      let total = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const samples = samplePolicies(clique, {
          seed,
          count: 15,
          levels: { min: 2, max: 2 },
          preferUncovered: prefer,
        });
        total += new Set(samples.map((s) => [...s.policies].sort().join())).size;
      }
      return total / 20;
    };
    expect(pairs(true)).toBeGreaterThan(pairs(false) + 2.5);
  });

  it('holds its promises on random graphs (property)', () => {
    const graphArb = fc.integer({ min: 0, max: 9 }).chain((n) =>
      fc.record({
        challenges: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: n, maxLength: n }),
        edges: fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: Math.max(0, n - 1) }),
            fc.integer({ min: 0, max: Math.max(0, n - 1) }),
            fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 })),
          ),
          { maxLength: n * 2 },
        ),
      }),
    );
    fc.assert(
      fc.property(
        graphArb,
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer(),
        fc.boolean(),
        ({ challenges, edges }, min, width, seed, prefer) => {
          const g = graphOf(
            challenges,
            edges.filter(([a, b]) => a !== b),
          );
          const band = { min, max: min + width };
          const count = 3 * (width + 1);
          const report = sampleWithReport(g, {
            seed,
            count,
            levels: band,
            preferUncovered: prefer,
          });
          const ids = new Set(g.nodes.map((n) => n.id));
          const reachable = reachableLevels(g);
          for (const s of report.samples) {
            expect(s.level).toBeGreaterThanOrEqual(band.min);
            expect(s.level).toBeLessThanOrEqual(band.max);
            expect(s.level).toBe(s.target);
            expect(new Set(s.policies).size).toBe(s.policies.length);
            for (const id of s.policies) expect(ids.has(id)).toBe(true);
            expect(walkable(g, s)).toBe(true);
          }
          // Every level is either sampled (evenly) or reported, and reported only if unreachable.
          const counts = levelCounts(report.samples);
          for (let level = band.min; level <= band.max; level++) {
            expect(counts.has(level)).toBe(reachable.has(level));
            const reported = report.unreachable.some((u) => u.from <= level && level <= u.to);
            expect(reported).toBe(!reachable.has(level));
          }
          if (counts.size > 0) {
            expect(report.samples).toHaveLength(count);
            expect(Math.max(...counts.values()) - Math.min(...counts.values())).toBeLessThanOrEqual(
              1,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Levels of every connected group of policies (over positive edges), by trying every subset. */
function reachableLevels(graph: PolicyGraph): Set<number> {
  const n = graph.nodes.length;
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const adjacent = Array.from({ length: n }, () => 0);
  for (const e of graph.edges) {
    if (!(e.weight > 0)) continue;
    const a = index.get(e.source) ?? 0;
    const b = index.get(e.target) ?? 0;
    adjacent[a] = (adjacent[a] ?? 0) | (1 << b);
    adjacent[b] = (adjacent[b] ?? 0) | (1 << a);
  }
  const levels = new Set<number>();
  for (let set = 1; set < 1 << n; set++) {
    let reached = set & -set;
    for (let grown = true; grown;) {
      grown = false;
      for (let i = 0; i < n; i++) {
        if (reached & (1 << i) && (adjacent[i] ?? 0) & set & ~reached) {
          reached |= (adjacent[i] ?? 0) & set;
          grown = true;
        }
      }
    }
    if (reached !== set) continue;
    let level = 0;
    for (let i = 0; i < n; i++) if (set & (1 << i)) level += graph.nodes[i]?.challenge ?? 0;
    levels.add(level);
  }
  return levels;
}
