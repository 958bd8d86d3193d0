import type { GraphEdge, GraphNode, PolicyGraph } from '../../core/index.ts';
import type { GraphFilters } from '../../state/slices/graphSlice.ts';

/**
 * Until the person moves the weight slider, model edges lighter than this are hidden: a model that
 * rated every pair of 58 policies writes about 1,650 relations, most of them weak, and drawn
 * together they hide the structure. Hand-written and heuristic edges are shown as they are.
 */
export const MODEL_EDGE_FLOOR = 4;

/**
 * And of the rest, only each policy's strongest few are drawn by default (an edge stays when it
 * is among the strongest of either of its policies): models rate generously, and hundreds of
 * edges of weight 5 to 7 are as unreadable as a thousand weak ones.
 */
export const MODEL_EDGES_PER_POLICY = 4;

/**
 * Whether an edge's weight lets it show under the filters: at or over the weight the person set;
 * with none set, any hand-written or heuristic edge, and a model edge at or over
 * {@link MODEL_EDGE_FLOOR} that is among the {@link MODEL_EDGES_PER_POLICY} strongest model edges
 * of either of its policies (ties in the graph's order).
 */
export function weightFilter(
  graph: PolicyGraph,
  filters: GraphFilters,
): (edge: GraphEdge) => boolean {
  const { minWeight } = filters;
  if (minWeight !== null) return (e) => e.weight >= minWeight;
  const byPolicy = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) {
    if (e.origin !== 'model' || e.weight < MODEL_EDGE_FLOOR) continue;
    for (const end of [e.source, e.target]) {
      const list = byPolicy.get(end);
      if (list) list.push(e);
      else byPolicy.set(end, [e]);
    }
  }
  const strong = new Set<GraphEdge>();
  for (const list of byPolicy.values()) {
    // A stable sort: equal weights keep the graph's order.
    list.sort((a, b) => b.weight - a.weight);
    for (const e of list.slice(0, MODEL_EDGES_PER_POLICY)) strong.add(e);
  }
  return (e) => e.origin !== 'model' || strong.has(e);
}

/**
 * Whether heuristic edges are drawn: as the person set it, else only while the graph has no model
 * edge. Once a model has rated the project its ratings stand in for the guesses; a pair it rated 0
 * (never together) is written nowhere, so a heuristic edge there would contradict it.
 */
export function showsHeuristic(graph: PolicyGraph, filters: GraphFilters): boolean {
  return filters.showHeuristic ?? !graph.edges.some((e) => e.origin === 'model');
}

/** What the canvas draws after filters and focus, and which policies the search matches. */
export interface VisibleGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Policies the search matches; null when there is no search. */
  readonly matches: ReadonlySet<string> | null;
  /** Model edges the default hides (0 once the person sets a weight). */
  readonly weakModelEdges: number;
}

/**
 * Applies the filters: hidden categories and the tool filter remove policies; the weight floor
 * and the heuristic switch remove edges (a weight of 0 means "never together" and is never
 * drawn; with no floor set, weak model edges and those past each policy's strongest are hidden
 * and counted, see {@link MODEL_EDGE_FLOOR}); focus keeps one policy and its neighbours. The search only marks matches, so the
 * context around them stays visible.
 */
export function visibleGraph(
  graph: PolicyGraph,
  filters: GraphFilters,
  focus: string | null,
): VisibleGraph {
  const hidden = new Set(filters.hiddenCategories);
  let nodes = graph.nodes.filter(
    (n) => !hidden.has(n.category) && (filters.tool === null || n.tools.includes(filters.tool)),
  );
  let ids = new Set(nodes.map((n) => n.id));
  const heuristic = showsHeuristic(graph, filters);
  const drawable = (e: GraphEdge) =>
    e.weight > 0 &&
    (heuristic || e.origin !== 'heuristic') &&
    ids.has(e.source) &&
    ids.has(e.target);
  const shows = weightFilter(graph, filters);
  let edges = graph.edges.filter((e) => drawable(e) && shows(e));
  let weak = filters.minWeight === null ? graph.edges.filter((e) => drawable(e) && !shows(e)) : [];
  if (focus !== null && ids.has(focus)) {
    const near = new Set([focus]);
    for (const e of edges) {
      if (e.source === focus) near.add(e.target);
      if (e.target === focus) near.add(e.source);
    }
    nodes = nodes.filter((n) => near.has(n.id));
    ids = near;
    const touches = (e: GraphEdge) => e.source === focus || e.target === focus;
    edges = edges.filter(touches);
    weak = weak.filter(touches);
  }
  const query = filters.search.trim().toLowerCase();
  const matches = query
    ? new Set(
        nodes
          .filter((n) => n.id.toLowerCase().includes(query) || n.text.toLowerCase().includes(query))
          .map((n) => n.id),
      )
    : null;
  return { nodes, edges, matches, weakModelEdges: weak.length };
}
