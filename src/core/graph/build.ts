import type { ProjectModel } from '../format/model.ts';
import { heuristicEdges } from './heuristic.ts';
import type { GraphEdge, GraphNode, PolicyGraph } from './types.ts';

const NO_REASONS: readonly string[] = Object.freeze([]);

/** How to build the graph. */
export interface BuildGraphOptions {
  /** Add heuristic edges between policies no relation links (default true). */
  readonly heuristic?: boolean;
}

/**
 * The policy graph of a project: one node per policy (in file order; a repeated id keeps its
 * first entry), the written relations as edges (a pair written twice keeps its first relation;
 * relations naming an unknown policy or the same policy twice are left out, since the parse
 * diagnostics already report them), and heuristic edges for pairs with no written relation.
 */
export function buildGraph(model: ProjectModel, options: BuildGraphOptions = {}): PolicyGraph {
  const tablesOfTool = new Map<string, string[]>();
  for (const tool of model.tools) {
    if (tablesOfTool.has(tool.name)) continue;
    tablesOfTool.set(tool.name, [...new Set(tool.effects.map((e) => e.table))]);
  }

  const index = new Map<string, number>();
  const nodes: GraphNode[] = [];
  const categories = new Set<string>();
  for (const policy of model.policies) {
    if (index.has(policy.id)) continue;
    index.set(policy.id, nodes.length);
    categories.add(policy.category);
    const tables = new Set<string>();
    for (const tool of policy.tools) for (const t of tablesOfTool.get(tool) ?? []) tables.add(t);
    nodes.push({
      id: policy.id,
      text: policy.text,
      category: policy.category,
      challenge: policy.challenge,
      tools: [...new Set(policy.tools)],
      tables: [...tables],
      path: policy.path,
    });
  }

  const n = nodes.length;
  const pairs = new Set<number>();
  const edges: GraphEdge[] = [];
  for (const relation of model.relations) {
    const [x, y] = relation.between;
    const i = index.get(x);
    const j = index.get(y);
    if (i === undefined || j === undefined || i === j) continue;
    const key = Math.min(i, j) * n + Math.max(i, j);
    if (pairs.has(key)) continue;
    pairs.add(key);
    const source = x < y ? x : y;
    const target = x < y ? y : x;
    edges.push({
      id: `${source}|${target}`,
      source,
      target,
      weight: Math.min(10, Math.max(0, relation.weight)),
      origin: relation.origin,
      reasons: NO_REASONS,
      ...(relation.reason !== undefined && { reason: relation.reason }),
      path: relation.path,
    });
  }
  if (options.heuristic !== false) {
    for (const edge of heuristicEdges(nodes, (i, j) => pairs.has(i * n + j))) edges.push(edge);
  }
  return { nodes, edges, categories: [...categories] };
}

/**
 * The graph as compressed adjacency lists over node indices, for walks that must not allocate
 * per step. Only edges of positive weight between known nodes appear; each appears in both
 * directions. Node i's neighbours are `target[offset[i]]` to `target[offset[i + 1] - 1]`, with
 * their weights in `weight` and running totals (restarting at each node) in `cumulative`.
 */
export interface Adjacency {
  readonly ids: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  readonly challenge: Int32Array;
  readonly offset: Int32Array;
  readonly target: Int32Array;
  readonly weight: Float64Array;
  readonly cumulative: Float64Array;
}

/**
 * Builds the {@link Adjacency} of a graph. Challenges are read as whole numbers of at least 1
 * (the parser already makes them 1-5), so a walk's level always grows.
 */
export function adjacencyOf(graph: PolicyGraph): Adjacency {
  const ids = graph.nodes.map((node) => node.id);
  const index = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!index.has(id)) index.set(id, i);
  });
  const n = ids.length;
  const challenge = Int32Array.from(graph.nodes, (node) =>
    Math.max(1, Math.round(Number.isFinite(node.challenge) ? node.challenge : 1)),
  );
  const ends: [number, number, number][] = [];
  const offset = new Int32Array(n + 1);
  for (const edge of graph.edges) {
    const a = index.get(edge.source);
    const b = index.get(edge.target);
    if (a === undefined || b === undefined || a === b || !(edge.weight > 0)) continue;
    ends.push([a, b, edge.weight]);
    offset[a + 1] = (offset[a + 1] ?? 0) + 1;
    offset[b + 1] = (offset[b + 1] ?? 0) + 1;
  }
  for (let i = 0; i < n; i++) offset[i + 1] = (offset[i + 1] ?? 0) + (offset[i] ?? 0);
  const fill = offset.slice(0, n);
  const target = new Int32Array(ends.length * 2);
  const weight = new Float64Array(ends.length * 2);
  const put = (from: number, to: number, w: number) => {
    const slot = fill[from] ?? 0;
    fill[from] = slot + 1;
    target[slot] = to;
    weight[slot] = w;
  };
  for (const [a, b, w] of ends) {
    put(a, b, w);
    put(b, a, w);
  }
  const cumulative = new Float64Array(weight.length);
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (let k = offset[i] ?? 0; k < (offset[i + 1] ?? 0); k++) {
      total += weight[k] ?? 0;
      cumulative[k] = total;
    }
  }
  return { ids, index, challenge, offset, target, weight, cumulative };
}
