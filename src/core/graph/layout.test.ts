import { describe, expect, it } from 'vitest';
import type { LayoutInput, LayoutResult, Point } from './layout.ts';
import { layoutGraph } from './layout.ts';
import { createRng } from './random.ts';

type Edge = LayoutInput['edges'][number];

/**
 * Clusters of policies joined by heavy edges, with light edges between clusters and a few
 * policies related to nothing: the shape of a real project's graph.
 */
function clustered(clusters: number, size: number, loners = 0, seed = 1): LayoutInput {
  const rng = createRng(seed);
  const nodes: { id: string; radius: number }[] = [];
  const edges: Edge[] = [];
  const id = (c: number, i: number) => `c${c}-${i}`;
  for (let c = 0; c < clusters; c++) {
    for (let i = 0; i < size; i++) {
      nodes.push({ id: id(c, i), radius: 8 + 3 * rng.int(5) });
      for (let j = 0; j < i; j++) {
        if (j === i - 1 || rng.next() < 0.3) {
          edges.push({ source: id(c, i), target: id(c, j), weight: 7 + rng.int(4) });
        }
      }
    }
    if (c > 0) {
      for (let k = 0; k < 2; k++) {
        const other = rng.int(c);
        edges.push({
          source: id(c, rng.int(size)),
          target: id(other, rng.int(size)),
          weight: 1 + rng.int(3),
        });
      }
    }
  }
  for (let i = 0; i < loners; i++) nodes.push({ id: `alone-${i}`, radius: 8 });
  return { nodes, edges };
}

const at = (result: LayoutResult, id: string): Point => {
  const p = result.positions.get(id);
  if (!p) throw new Error(`no position for ${id}`);
  return p;
};

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** The smallest gap between two nodes' rims, as a share of their radii summed (1 = touching). */
function closestPair(input: LayoutInput, result: LayoutResult): number {
  let closest = Infinity;
  for (let i = 0; i < input.nodes.length; i++) {
    for (let j = i + 1; j < input.nodes.length; j++) {
      const a = input.nodes[i];
      const b = input.nodes[j];
      if (!a || !b) continue;
      closest = Math.min(
        closest,
        distance(at(result, a.id), at(result, b.id)) / (a.radius + b.radius),
      );
    }
  }
  return closest;
}

function meanLength(result: LayoutResult, edges: readonly Edge[]): number {
  const total = edges.reduce(
    (sum, e) => sum + distance(at(result, e.source), at(result, e.target)),
    0,
  );
  return total / edges.length;
}

function extent(result: LayoutResult) {
  const xs = [...result.positions.values()].map((p) => p.x);
  const ys = [...result.positions.values()].map((p) => p.y);
  return { width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
}

function allFinite(result: LayoutResult) {
  return [...result.positions.values()].every((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
}

const small = clustered(6, 8, 4);
// Over 300 nodes: laid out by forces alone (no stress layout first).
const large = clustered(35, 9, 10, 2);
const graphs = { small, large };

/** Each graph laid out once with seed 1, shared by the tests that only look at the result. */
const laidOut = new Map<LayoutInput, LayoutResult>();
function seedOne(input: LayoutInput): LayoutResult {
  let result = laidOut.get(input);
  if (!result) {
    result = layoutGraph(input, { seed: 1 });
    laidOut.set(input, result);
  }
  return result;
}

describe('layoutGraph', () => {
  it('places every node once, at finite coordinates', () => {
    for (const input of Object.values(graphs)) {
      const result = seedOne(input);
      expect(result.stopped).toBe(false);
      expect(result.positions.size).toBe(input.nodes.length);
      expect(allFinite(result)).toBe(true);
    }
  });

  it('gives the same layout for the same seed', () => {
    for (const input of Object.values(graphs)) {
      expect(layoutGraph(input, { seed: 1 }).positions).toEqual(seedOne(input).positions);
    }
  });

  it('keeps nodes apart: no two circles overlap', () => {
    expect(closestPair(small, seedOne(small))).toBeGreaterThanOrEqual(1);
    expect(closestPair(large, seedOne(large))).toBeGreaterThanOrEqual(1);
  });

  it('draws heavy edges shorter than light ones', () => {
    // Rings whose edges alternate heavy and light: only the weights tell the edges apart.
    const ring = (n: number): LayoutInput => ({
      nodes: Array.from({ length: n }, (_, i) => ({ id: `r${i}`, radius: 10 })),
      edges: Array.from({ length: n }, (_, i) => ({
        source: `r${i}`,
        target: `r${(i + 1) % n}`,
        weight: i % 2 ? 1 : 10,
      })),
    });
    for (const input of [...Object.values(graphs), ring(24), ring(320)]) {
      const result = seedOne(input);
      const heavy = meanLength(
        result,
        input.edges.filter((e) => e.weight >= 7),
      );
      const light = meanLength(
        result,
        input.edges.filter((e) => e.weight <= 3),
      );
      expect(heavy).toBeLessThan(light * 0.7);
    }
  });

  it('keeps separate components and lone nodes near each other', () => {
    const scattered = clustered(12, 3, 20);
    const result = layoutGraph(
      { ...scattered, edges: scattered.edges.filter((e) => e.weight > 3) },
      { seed: 1 },
    );
    const { width, height } = extent(result);
    // 56 nodes of radius 8-20: a square of about 1,000 px holds them comfortably.
    expect(Math.max(width, height)).toBeLessThan(1500);
    expect(closestPair(scattered, result)).toBeGreaterThanOrEqual(1);
  });

  it('never moves pinned nodes and lays the rest out around them', () => {
    const one = new Map<string, Point>([['c0-0', { x: 1000, y: 1000 }]]);
    const two = new Map<string, Point>([...one, ['c3-2', { x: 1400.5, y: 900.25 }]]);
    for (const input of Object.values(graphs)) {
      for (const pinned of [one, two]) {
        const result = layoutGraph({ ...input, pinned }, { seed: 1 });
        for (const [id, p] of pinned) expect(at(result, id)).toEqual(p);
        // A heavy neighbour of a pinned node sits close to it.
        expect(distance(at(result, 'c0-1'), at(result, 'c0-0'))).toBeLessThan(150);
        expect(closestPair(input, result)).toBeGreaterThanOrEqual(0.95);
      }
    }
  });

  it('refines an earlier layout: a new node lands by its neighbours and the rest hardly moves', () => {
    for (const input of Object.values(graphs)) {
      const before = seedOne(input).positions;
      const after = layoutGraph(
        {
          nodes: [...input.nodes, { id: 'new', radius: 14 }],
          edges: [
            ...input.edges,
            { source: 'new', target: 'c2-3', weight: 9 },
            { source: 'new', target: 'c2-4', weight: 8 },
          ],
          initial: before,
        },
        { seed: 1 },
      );
      const moved = input.nodes.map((n) =>
        distance(at(after, n.id), before.get(n.id) ?? { x: NaN, y: NaN }),
      );
      const meanMove = moved.reduce((s, d) => s + d, 0) / moved.length;
      expect(meanMove).toBeLessThan(40);
      expect(distance(at(after, 'new'), at(after, 'c2-3'))).toBeLessThan(150);
      expect(distance(at(after, 'new'), at(after, 'c2-4'))).toBeLessThan(150);
    }
  });

  it('reports monotonic progress that ends at the total', () => {
    for (const input of [small, large, { nodes: [], edges: [] }]) {
      const calls: [number, number][] = [];
      layoutGraph(input, { seed: 1, onProgress: (done, total) => calls.push([done, total]) });
      expect(calls.length).toBeGreaterThan(0);
      const total = calls[0]?.[1] ?? 0;
      expect(calls.every(([, t]) => t === total)).toBe(true);
      expect(calls.every(([done], i) => i === 0 || done > (calls[i - 1]?.[0] ?? 0))).toBe(true);
      expect(calls.at(-1)).toEqual([total, total]);
    }
  });

  it('stops when asked, with every node still placed', () => {
    for (const input of Object.values(graphs)) {
      let asked = 0;
      const calls: number[] = [];
      const result = layoutGraph(
        { ...input, pinned: new Map([['c1-1', { x: 5, y: 6 }]]) },
        { seed: 1, shouldStop: () => ++asked > 20, onProgress: (done) => calls.push(done) },
      );
      expect(result.stopped).toBe(true);
      expect(Math.max(...calls)).toBe(20);
      expect(result.positions.size).toBe(input.nodes.length);
      expect(allFinite(result)).toBe(true);
      expect(at(result, 'c1-1')).toEqual({ x: 5, y: 6 });
    }
    const never = layoutGraph(small, { seed: 1, shouldStop: () => true });
    expect(never.stopped).toBe(true);
    expect(never.positions.size).toBe(small.nodes.length);
    expect(allFinite(never)).toBe(true);
  });

  it('lays out empty and one-node graphs', () => {
    expect(layoutGraph({ nodes: [], edges: [] }, { seed: 1 })).toEqual({
      positions: new Map(),
      stopped: false,
    });
    const one = layoutGraph({ nodes: [{ id: 'a', radius: 10 }], edges: [] }, { seed: 1 });
    expect(allFinite(one)).toBe(true);
    const pinned = layoutGraph(
      { nodes: [{ id: 'a', radius: 10 }], edges: [], pinned: new Map([['a', { x: 3, y: 4 }]]) },
      { seed: 1 },
    );
    expect(at(pinned, 'a')).toEqual({ x: 3, y: 4 });
  });

  it('shrugs off broken input: unknown ends, self-loops, odd weights and sizes, repeated ids', () => {
    const input: LayoutInput = {
      nodes: [
        { id: 'a', radius: 10 },
        { id: 'b', radius: Number.NaN },
        { id: 'c', radius: -3 },
        { id: 'a', radius: 12 },
      ],
      edges: [
        { source: 'a', target: 'ghost', weight: 5 },
        { source: 'a', target: 'a', weight: 5 },
        { source: 'a', target: 'b', weight: Number.NaN },
        { source: 'b', target: 'c', weight: 99 },
        { source: 'c', target: 'b', weight: -4 },
      ],
      pinned: new Map([['c', { x: Number.NaN, y: 0 }]]),
      initial: new Map([['ghost', { x: 1, y: 1 }]]),
    };
    const result = layoutGraph(input, { seed: 1 });
    expect([...result.positions.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(allFinite(result)).toBe(true);
  });
});
