import { words } from '../text.ts';
import type { GraphEdge, GraphNode } from './types.ts';

/**
 * The tuning of the heuristic weigher, in one place so the graph view can explain it.
 *
 * A pair earns points for each thing it shares: a tool (4 points), its category (4), a database
 * table (1.5) or a word of the policy texts (1.5), each scaled by how rare it is among the
 * policies (a tool, category or table keeps at least half its points; a word shared by every
 * policy earns nothing). Generic things earn nothing and link nothing: a word in the stop lists
 * or spread over most categories, a tool or table that nearly every policy has. The weight is
 * `10 * (1 - exp(-points / saturation))`, rounded: one tool gives about 3, two about 5, and only
 * pairs that share a great deal come near 10.
 */
export const HEURISTIC = {
  toolPoints: 4,
  tablePoints: 1.5,
  termPoints: 1.5,
  categoryPoints: 4,
  /**
   * A word found in more than this share of the categories (when there are at least
   * `minCategories`) says nothing about a pair, like "last" or "original".
   */
  genericCategoryShare: 0.5,
  minCategories: 4,
  /**
   * A tool, table or category that more than this share of the policies have links nothing (a
   * tool or table only among five policies or more).
   */
  genericToolShare: 0.8,
  saturation: 8,
  /** Weights (after rounding) below this are dropped: one rare shared word is not enough. */
  minWeight: 2,
  /** A policy keeps at most this many heuristic neighbours, so the graph stays drawable. */
  maxNeighbours: 6,
  /**
   * A tool, table or word shared by more policies than this proposes no pair by itself (it still
   * adds its points to pairs that something rarer proposed). This bounds the work at about
   * `maxPosting` times the number of (policy, feature) occurrences instead of all pairs.
   */
  maxPosting: 48,
  /** How many shared tools, tables and words the reasons name (the rarest words first). */
  namesInReasons: 4,
} as const;

/** What the weigher reads of a policy; without a category, only what it shares counts. */
export type HeuristicPolicy = Pick<GraphNode, 'id' | 'text' | 'tools' | 'tables'> & {
  readonly category?: string;
};

const TOOL = 0;
const TABLE = 1;
const TERM = 2;
const CATEGORY = 3;

const STOP_WORDS = new Set(
  'a an the to of and or for in on at by with be is are was were it its this that these those you your we our they their must should never always do does not no only if when then than as from into any all each every can may will shall has have had been being about after before also but so such there which who whom what where while within without other more most less least same own per via'.split(
    ' ',
  ),
);

/**
 * Words that are not stop words but tell nothing about what a policy is about: time, order and
 * degree words ("last", "original", "first") and the words every support policy uses.
 */
const GENERIC_WORDS = new Set(
  'last first next new old original current previous again already still just ever even very much many few some another either neither both whether however instead unless until since once need needs use used using make made give given take ask asked tell told help user customer agent time way thing case request'.split(
    ' ',
  ),
);

/** The meaningful words of a policy text: lower-cased, no stop words or numbers, plurals cut. */
function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (word.length < 3 || STOP_WORDS.has(word) || GENERIC_WORDS.has(word)) continue;
    if (isDigit(word.charCodeAt(0))) continue;
    const last = word.length > 4 ? word.slice(-2) : '';
    out.push(last[1] === 's' && last[0] !== 's' && last[0] !== 'u' ? word.slice(0, -1) : word);
  }
  return out;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** A deterministic scramble of an unordered pair, to break ties without favouring low indices. */
function pairHash(a: number, b: number): number {
  let h = Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 7, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Tools, tables and words, numbered, with inverted indexes from each to its policies. */
class Features {
  readonly kind: number[] = [];
  readonly name: string[] = [];
  readonly postings: number[][] = [];
  /** Per policy: the ids of its features, each once. */
  readonly of: number[][] = [];
  /** Per policy: its features shared by too many policies to propose pairs. */
  readonly commonOf: number[][] = [];
  readonly points: Float64Array;
  private readonly ids = Array.from({ length: 4 }, () => new Map<string, number>());

  constructor(policies: readonly HeuristicPolicy[]) {
    policies.forEach((policy, i) => {
      const own: number[] = [];
      for (const tool of policy.tools) this.add(TOOL, tool, i, own);
      for (const table of policy.tables) this.add(TABLE, table, i, own);
      for (const term of terms(policy.text)) this.add(TERM, term, i, own);
      if (policy.category !== undefined && policy.category !== '') {
        this.add(CATEGORY, policy.category, i, own);
      }
      this.of.push(own);
    });
    const n = policies.length;
    const scale = Math.log(n + 1);
    this.points = new Float64Array(this.kind.length);
    const common = new Uint8Array(this.kind.length);
    const spread = this.categorySpread(policies);
    const categories = this.ids[CATEGORY]?.size ?? 0;
    const genericSpread =
      categories >= HEURISTIC.minCategories
        ? categories * HEURISTIC.genericCategoryShare
        : Number.POSITIVE_INFINITY;
    for (let id = 0; id < this.kind.length; id++) {
      const df = this.postings[id]?.length ?? 1;
      const rarity = Math.log((n + 1) / df) / scale;
      const kind = this.kind[id];
      // A word in more than half of the policies is as good as a stop word; so is one spread
      // over most categories, and a tool or table nearly every policy has.
      const stop =
        kind === TERM
          ? df > Math.max(2, n / 2) || (spread[id] ?? 0) > genericSpread
          : (kind === CATEGORY || n >= 5) && df > n * HEURISTIC.genericToolShare;
      this.points[id] = stop
        ? 0
        : kind === TOOL
          ? HEURISTIC.toolPoints * (0.5 + 0.5 * rarity)
          : kind === TABLE
            ? HEURISTIC.tablePoints * (0.5 + 0.5 * rarity)
            : kind === CATEGORY
              ? HEURISTIC.categoryPoints * (0.5 + 0.5 * rarity)
              : HEURISTIC.termPoints * rarity;
      common[id] = !stop && df > HEURISTIC.maxPosting ? 1 : 0;
    }
    for (const own of this.of) this.commonOf.push(own.filter((id) => common[id] === 1));
  }

  /** Per feature: how many different categories its policies have (one pass over postings). */
  private categorySpread(policies: readonly HeuristicPolicy[]): Int32Array {
    const spread = new Int32Array(this.kind.length);
    const seen = new Map<string, number>();
    for (let id = 0; id < this.kind.length; id++) {
      if (this.kind[id] !== TERM) continue;
      for (const i of this.postings[id] ?? []) {
        const category = policies[i]?.category;
        if (category === undefined || category === '' || seen.get(category) === id) continue;
        seen.set(category, id);
        spread[id] = (spread[id] ?? 0) + 1;
      }
    }
    return spread;
  }

  private add(kind: number, name: string, policy: number, own: number[]): void {
    const ids = this.ids[kind] ?? new Map<string, number>();
    let id = ids.get(name);
    if (id === undefined) {
      id = this.kind.length;
      ids.set(name, id);
      this.kind.push(kind);
      this.name.push(name);
      this.postings.push([]);
    }
    const list = this.postings[id] ?? [];
    if (list[list.length - 1] === policy) return;
    list.push(policy);
    own.push(id);
  }

  /** Whether this feature proposes pairs: shared, not a stop word, and not too common. */
  proposes(id: number): boolean {
    const df = this.postings[id]?.length ?? 0;
    return df >= 2 && df <= HEURISTIC.maxPosting && (this.points[id] ?? 0) > 0;
  }
}

/** The 0-10 weight of a pair with these points. */
const weightOf = (points: number) =>
  Math.round(10 * (1 - Math.exp(-points / HEURISTIC.saturation)));

/**
 * Scored pairs of policy indices (a < b) in parallel typed arrays, so that thousands of
 * candidates cost no objects. Stronger first: higher score, then a scrambled tie-break.
 */
export class Pairs {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly score: Float64Array;
  readonly tie: Uint32Array;
  readonly limit: number;
  size = 0;

  /** Room for `limit` pairs, and one slot more for a pair on trial. */
  constructor(limit: number) {
    this.limit = limit;
    this.a = new Int32Array(limit + 1);
    this.b = new Int32Array(limit + 1);
    this.score = new Float64Array(limit + 1);
    this.tie = new Uint32Array(limit + 1);
  }

  /** Whether entry x ranks before entry y. */
  before(x: number, y: number): boolean {
    const sx = this.score[x] ?? 0;
    const sy = this.score[y] ?? 0;
    if (sx !== sy) return sx > sy;
    const tx = this.tie[x] ?? 0;
    const ty = this.tie[y] ?? 0;
    if (tx !== ty) return tx < ty;
    const ax = this.a[x] ?? 0;
    const ay = this.a[y] ?? 0;
    return ax !== ay ? ax < ay : (this.b[x] ?? 0) < (this.b[y] ?? 0);
  }

  /** Appends a pair (there must be room). */
  push(a: number, b: number, score: number): void {
    this.set(this.size++, a, b, score);
  }

  /** Keeps the pair if it is among the `limit` strongest offered since `size` was last 0. */
  offer(a: number, b: number, score: number): void {
    const trial = this.limit;
    this.set(trial, a, b, score);
    if (this.size === this.limit && !this.before(trial, this.limit - 1)) return;
    let k = this.size < this.limit ? this.size++ : this.limit - 1;
    for (; k > 0 && this.before(trial, k - 1); k--) this.copy(k - 1, k);
    this.copy(trial, k);
  }

  private set(k: number, a: number, b: number, score: number): void {
    this.a[k] = a;
    this.b[k] = b;
    this.score[k] = score;
    this.tie[k] = pairHash(a, b);
  }

  private copy(from: number, to: number): void {
    this.a[to] = this.a[from] ?? 0;
    this.b[to] = this.b[from] ?? 0;
    this.score[to] = this.score[from] ?? 0;
    this.tie[to] = this.tie[from] ?? 0;
  }
}

/**
 * Heuristic edges between policies that no relation links: a shared category, shared tools,
 * shared database tables and shared rare words, weighted 0-10 with the reasons in words
 * (`category refunds`, `tool refund_order`, `table orders`, `terms "refund", "voucher"`). Only pairs that share something are ever scored
 * (inverted indexes), each policy keeps its `HEURISTIC.maxNeighbours` strongest, and weights
 * under `HEURISTIC.minWeight` are dropped. Deterministic.
 * @param written whether policies i and j (indices, i < j) already have a written relation;
 *   those pairs get no heuristic edge, whatever they share.
 */
export function heuristicEdges(
  policies: readonly HeuristicPolicy[],
  written: (i: number, j: number) => boolean = () => false,
): GraphEdge[] {
  const n = policies.length;
  const f = new Features(policies);
  const mark = new Int32Array(f.kind.length);
  const seen = new Int32Array(n);
  const acc = new Float64Array(n);
  const touched: number[] = [];
  // Each policy keeps twice the final number here, so the degree cap below still has choices.
  const mine = new Pairs(HEURISTIC.maxNeighbours * 2);
  const all = new Pairs(n * mine.limit);

  for (let i = 0; i < n; i++) {
    const own = f.of[i] ?? [];
    for (const id of own) {
      mark[id] = i + 1;
      if (!f.proposes(id)) continue;
      const points = f.points[id] ?? 0;
      for (const j of f.postings[id] ?? []) {
        if (j === i) continue;
        if (seen[j] !== i + 1) {
          seen[j] = i + 1;
          acc[j] = 0;
          touched.push(j);
        }
        acc[j] = (acc[j] ?? 0) + points;
      }
    }
    for (const j of touched) {
      const a = i < j ? i : j;
      const b = i < j ? j : i;
      if (written(a, b)) continue;
      let score = acc[j] ?? 0;
      for (const id of f.commonOf[j] ?? []) if (mark[id] === i + 1) score += f.points[id] ?? 0;
      if (weightOf(score) >= HEURISTIC.minWeight) mine.offer(a, b, score);
    }
    touched.length = 0;
    for (let k = 0; k < mine.size; k++)
      all.push(mine.a[k] ?? 0, mine.b[k] ?? 0, mine.score[k] ?? 0);
    mine.size = 0;
  }

  const order = Int32Array.from({ length: all.size }, (_, k) => k).sort((x, y) =>
    all.before(x, y) ? -1 : all.before(y, x) ? 1 : 0,
  );
  const degree = new Int32Array(n);
  const edges: GraphEdge[] = [];
  // A pair kept by both its policies is listed twice.
  const done = new Set<number>();
  for (const k of order) {
    const a = all.a[k] ?? 0;
    const b = all.b[k] ?? 0;
    if (done.has(a * n + b)) continue;
    done.add(a * n + b);
    if ((degree[a] ?? 0) >= HEURISTIC.maxNeighbours || (degree[b] ?? 0) >= HEURISTIC.maxNeighbours)
      continue;
    degree[a] = (degree[a] ?? 0) + 1;
    degree[b] = (degree[b] ?? 0) + 1;
    edges.push(edge(policies, f, mark, a, b, all.score[k] ?? 0));
  }
  return edges;
}

/** "tools a, b, c and 2 more": one reason naming the shared features of one kind. */
function reason(f: Features, ids: number[], noun: string, quote: boolean): string {
  let text = ids.length === 1 ? noun : `${noun}s`;
  const shown = Math.min(ids.length, HEURISTIC.namesInReasons);
  for (let k = 0; k < shown; k++) {
    const name = f.name[ids[k] ?? 0] ?? '';
    text += `${k === 0 ? ' ' : ', '}${quote ? `"${name}"` : name}`;
  }
  return ids.length > shown ? `${text} and ${ids.length - shown} more` : text;
}

function edge(
  policies: readonly HeuristicPolicy[],
  f: Features,
  mark: Int32Array,
  a: number,
  b: number,
  score: number,
): GraphEdge {
  const stamp = -(a + 1);
  for (const id of f.of[a] ?? []) mark[id] = stamp;
  const shared: number[][] = [[], [], [], []];
  for (const id of f.of[b] ?? []) {
    if (mark[id] === stamp && (f.points[id] ?? 0) > 0) shared[f.kind[id] ?? TERM]?.push(id);
  }
  const [tools = [], tables = [], words = [], categories = []] = shared;
  words.sort((x, y) => (f.points[y] ?? 0) - (f.points[x] ?? 0) || x - y);
  const reasons: string[] = [];
  if (categories.length > 0) reasons.push(reason(f, categories, 'category', false));
  if (tools.length > 0) reasons.push(reason(f, tools, 'tool', false));
  if (tables.length > 0) reasons.push(reason(f, tables, 'table', false));
  if (words.length > 0) reasons.push(reason(f, words, 'term', true));
  const x = policies[a]?.id ?? '';
  const y = policies[b]?.id ?? '';
  const source = x < y ? x : y;
  const target = x < y ? y : x;
  return {
    id: `${source}|${target}`,
    source,
    target,
    weight: weightOf(score),
    origin: 'heuristic',
    reasons,
  };
}
