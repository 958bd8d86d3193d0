import type { Adjacency } from './build.ts';
import { adjacencyOf } from './build.ts';
import type { Rng } from './random.ts';
import { WeightTree, createRng } from './random.ts';
import { componentTotals, findGroup } from './search.ts';
import type { PolicyGraph, PolicySample, SampleOptions } from './types.ts';

/** Random walks tried for one sample before the exhaustive search takes over. */
const WALK_ATTEMPTS = 16;
/** Steps the exhaustive search may take for one sample before it gives up... */
const SEARCH_BUDGET = 20_000;
/** ... and for all samples of one call, which bounds a call's time on graphs built to be hard. */
const CALL_SEARCH_BUDGET = 400_000;
/** Rejection draws from a node's full neighbour list before filtering the list by hand. */
const QUICK_DRAWS = 3;
/** Rejection draws of a favoured start before weighing every eligible node by hand. */
const QUICK_STARTS = 32;

/** Levels `from` to `to` (inclusive) of the band, which no sample reached, and why. */
export interface UnreachableLevels {
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/** Samples together with the levels of the band that could not be reached. */
export interface SampleReport {
  readonly samples: PolicySample[];
  /** In order of level; neighbouring levels with the same reason are one range. */
  readonly unreachable: readonly UnreachableLevels[];
}

/**
 * Combinations of policies for scenarios, drawn by weighted random walks over the graph (as
 * IntellAgent does, with its flaws fixed). See {@link sampleWithReport}.
 */
export function samplePolicies(graph: PolicyGraph, options: SampleOptions): PolicySample[] {
  return sampleWithReport(graph, options).samples;
}

/**
 * Draws `options.count` samples whose levels (summed challenge) are spread evenly over the band:
 * targets go round-robin over the band's levels in a fresh seeded order each round, so at any
 * point every reachable level has been sampled as often as every other, give or take one.
 *
 * Each walk starts at a random node and moves to an unvisited neighbour with probability
 * proportional to the edge weight (zero-weight edges are never taken), considering only
 * neighbours whose challenge still fits under the target, so a walk never passes it. At a dead
 * end it jumps to an unvisited node adjacent to any visited one; so every policy after the first
 * shares a positive edge with an earlier one. After a few failed walks an exhaustive (bounded)
 * search settles the target. A level that cannot occur (above the largest connected group, not
 * a multiple of the challenges' common divisor, or proven absent by the search), or that the
 * search gave up on, is reported in `unreachable` with the reason and skipped from then on, so
 * the call always ends. Every sample's level equals its target.
 *
 * With `preferUncovered`, starts and steps favour policies tested less (by `coverage`, else the
 * nodes' `tested`, plus earlier samples of this call) and pairs sampled together less often.
 * Deterministic: the same graph, options and seed give the same samples.
 * @throws RangeError when `count` is not a whole number ≥ 0 or the band is empty or not finite.
 */
export function sampleWithReport(graph: PolicyGraph, options: SampleOptions): SampleReport {
  const { count, levels } = options;
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number of at least 0, not ${count}.`);
  if (!Number.isFinite(levels.min) || !Number.isFinite(levels.max) || levels.min > levels.max)
    throw new RangeError(`levels must be a finite band with min <= max.`);

  const adj = adjacencyOf(graph);
  const rng = createRng(options.seed);
  const walker = new Walker(adj, rng, options, graph);
  const unreachable: UnreachableLevels[] = [];
  // Every policy has challenge 1 or more, so levels below 1 never occur.
  const lowest = Math.max(1, Math.ceil(levels.min));
  const highest = Math.floor(levels.max);
  const largest = walker.largest;
  if (highest > largest && highest >= lowest) {
    const reason =
      adj.ids.length === 0
        ? 'the graph has no policies'
        : `the largest connected group of policies reaches level ${largest}`;
    unreachable.push({ from: Math.max(lowest, largest + 1), to: highest, reason });
  }
  // When every challenge is a multiple of some g > 1, so is every level.
  const step = adj.challenge.reduce(gcd, 0);
  let active: number[] = [];
  for (let level = lowest; level <= Math.min(highest, largest); level++) {
    if (level % step === 0) active.push(level);
    else {
      const reason = `levels are always multiples of ${step}, as every challenge is`;
      unreachable.push({ from: level, to: level, reason });
    }
  }

  const samples: PolicySample[] = [];
  const previous = new Map<number, readonly number[]>();
  while (samples.length < count && active.length > 0) {
    for (const level of rng.shuffle([...active])) {
      if (samples.length >= count) break;
      const found = walker.sample(level);
      const group = typeof found === 'string' ? previous.get(level) : found;
      if (group !== undefined) {
        previous.set(level, group);
        walker.record(group);
        samples.push({ policies: group.map((i) => adj.ids[i] ?? ''), level, target: level });
      } else if (typeof found === 'string') {
        unreachable.push({ from: level, to: level, reason: found });
        active = active.filter((l) => l !== level);
      }
    }
  }
  return { samples, unreachable: mergeRanges(unreachable) };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Sorts ranges by level and joins neighbours that give the same reason. */
function mergeRanges(ranges: UnreachableLevels[]): UnreachableLevels[] {
  const merged: UnreachableLevels[] = [];
  for (const range of ranges.sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.to + 1 === range.from && last.reason === range.reason)
      merged[merged.length - 1] = { ...last, to: range.to };
    else merged.push(range);
  }
  return merged;
}

/** How much a policy or pair tested or sampled `count` times is favoured: less, steeply. */
const uncovered = (count: number) => {
  const times = 1 + count;
  return 1 / (times * times * times);
};

/** The walk's state, allocated once per call so that steps allocate nothing. */
class Walker {
  private readonly totals: Int32Array;
  private readonly starts = new Map<number, Int32Array>();
  private readonly visited: Int32Array;
  private epoch = 0;
  private searchLeft = CALL_SEARCH_BUDGET;
  private readonly members: number[] = [];
  private readonly slots: Int32Array;
  private readonly slotWeights: Float64Array;
  private readonly prefer: boolean;
  private readonly nodeCount: Float64Array;
  private readonly pairCount: Float64Array;
  private readonly startWeights: WeightTree;
  /** The level of the largest connected group of policies: no walk reaches past it. */
  readonly largest: number;
  private readonly adj: Adjacency;
  private readonly rng: Rng;

  constructor(adj: Adjacency, rng: Rng, options: SampleOptions, graph: PolicyGraph) {
    this.adj = adj;
    this.rng = rng;
    const n = adj.ids.length;
    this.totals = componentTotals(adj);
    this.largest = this.totals.reduce((a, b) => Math.max(a, b), 0);
    this.visited = new Int32Array(n);
    this.slots = new Int32Array(adj.target.length);
    this.slotWeights = new Float64Array(Math.max(adj.target.length, n));
    this.prefer = options.preferUncovered === true;
    this.nodeCount = Float64Array.from(graph.nodes, (node) =>
      this.prefer ? (options.coverage?.get(node.id)?.tested ?? 0) : 0,
    );
    this.pairCount = new Float64Array(this.prefer ? adj.target.length : 0);
    this.startWeights = new WeightTree(this.prefer ? this.nodeCount.map(uncovered) : []);
  }

  /** A group of node indices with exactly this level, or why none was found. */
  sample(level: number): readonly number[] | string {
    for (let attempt = 0; attempt < WALK_ATTEMPTS; attempt++) {
      if (this.walk(level)) return [...this.members];
    }
    const budget = Math.min(SEARCH_BUDGET, this.searchLeft);
    const search = findGroup(this.adj, level, this.rng.int(this.adj.ids.length), budget);
    this.searchLeft -= search.steps;
    if (search.found) return search.found;
    return search.exhausted
      ? 'no connected group of policies has this level'
      : 'no group of policies with this level was found within the search budget';
  }

  /** Counts a sample's policies and pairs as covered, for `preferUncovered`. */
  record(group: readonly number[]): void {
    if (!this.prefer) return;
    const { offset, target } = this.adj;
    const mark = ++this.epoch;
    for (const i of group) this.visited[i] = mark;
    for (const i of group) {
      this.nodeCount[i] = (this.nodeCount[i] ?? 0) + 1;
      this.startWeights.set(i, uncovered(this.nodeCount[i] ?? 0));
      for (let k = offset[i] ?? 0; k < (offset[i + 1] ?? 0); k++) {
        if (this.visited[target[k] ?? 0] === mark) this.pairCount[k] = (this.pairCount[k] ?? 0) + 1;
      }
    }
  }

  private walk(level: number): boolean {
    const start = this.start(level);
    if (start < 0) return false;
    const mark = ++this.epoch;
    this.members.length = 0;
    let current = start;
    let sum = 0;
    for (;;) {
      this.members.push(current);
      this.visited[current] = mark;
      sum += this.adj.challenge[current] ?? 0;
      if (sum >= level) return sum === level;
      const room = level - sum;
      let next = this.step(current, room, mark);
      if (next < 0) next = this.jump(room, mark);
      if (next < 0) return false;
      current = next;
    }
  }

  private start(level: number): number {
    let eligible = this.starts.get(level);
    if (eligible === undefined) {
      const list: number[] = [];
      for (let i = 0; i < this.adj.ids.length; i++) if (this.canStart(i, level)) list.push(i);
      eligible = Int32Array.from(list);
      this.starts.set(level, eligible);
    }
    if (!this.prefer) return eligible[this.rng.int(eligible.length)] ?? -1;
    for (let d = 0; d < QUICK_STARTS; d++) {
      const i = this.startWeights.draw(this.rng);
      if (i >= 0 && this.canStart(i, level)) return i;
    }
    for (let e = 0; e < eligible.length; e++)
      this.slotWeights[e] = uncovered(this.nodeCount[eligible[e] ?? 0] ?? 0);
    return eligible[this.rng.weighted(this.slotWeights, eligible.length)] ?? -1;
  }

  /** Whether a walk to this level may start at node i: it fits, and so could its component. */
  private canStart(i: number, level: number): boolean {
    return (this.adj.challenge[i] ?? 0) <= level && (this.totals[i] ?? 0) >= level;
  }

  private fits(j: number, room: number, mark: number): boolean {
    return this.visited[j] !== mark && (this.adj.challenge[j] ?? 0) <= room;
  }

  /** Weight of moving along slot k to node j, with the coverage preference if asked for. */
  private weightOf(k: number, j: number): number {
    const w = this.adj.weight[k] ?? 0;
    if (!this.prefer) return w;
    return w * uncovered(this.nodeCount[j] ?? 0) * uncovered(this.pairCount[k] ?? 0);
  }

  /** An unvisited neighbour of `from` that fits, drawn by edge weight; -1 when none does. */
  private step(from: number, room: number, mark: number): number {
    const { offset, target, cumulative } = this.adj;
    const lo = offset[from] ?? 0;
    const hi = offset[from + 1] ?? 0;
    if (!this.prefer) {
      for (let d = 0; d < QUICK_DRAWS; d++) {
        const k = this.rng.cumulative(cumulative, lo, hi);
        if (k < 0) return -1;
        const j = target[k] ?? 0;
        if (this.fits(j, room, mark)) return j;
      }
    }
    let size = 0;
    for (let k = lo; k < hi; k++) {
      const j = target[k] ?? 0;
      this.slots[size] = j;
      this.slotWeights[size++] = this.fits(j, room, mark) ? this.weightOf(k, j) : 0;
    }
    return this.slots[this.rng.weighted(this.slotWeights, size)] ?? -1;
  }

  /** An unvisited node that fits next to any visited one, drawn by edge weight; -1 if none. */
  private jump(room: number, mark: number): number {
    const { offset, target } = this.adj;
    let size = 0;
    for (const i of this.members) {
      for (let k = offset[i] ?? 0; k < (offset[i + 1] ?? 0); k++) {
        const j = target[k] ?? 0;
        if (!this.fits(j, room, mark)) continue;
        this.slots[size] = j;
        this.slotWeights[size++] = this.weightOf(k, j);
      }
    }
    return this.slots[this.rng.weighted(this.slotWeights, size)] ?? -1;
  }
}
