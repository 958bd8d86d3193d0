import type { GraphEdge, GraphNode, PolicyGraph } from '../../core/index.ts';
import type { GraphFilters } from '../../state/slices/graphSlice.ts';

/** What the canvas draws after filters and focus, and which policies the search matches. */
export interface VisibleGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Policies the search matches; null when there is no search. */
  readonly matches: ReadonlySet<string> | null;
}

/**
 * Applies the filters: hidden categories and the tool filter remove policies; the weight floor
 * and the heuristic switch remove edges (a weight of 0 means "never together" and is never
 * drawn); focus keeps one policy and its neighbours. The search only marks matches, so the
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
  let edges = graph.edges.filter(
    (e) =>
      e.weight > 0 &&
      e.weight >= filters.minWeight &&
      (filters.showHeuristic || e.origin !== 'heuristic') &&
      ids.has(e.source) &&
      ids.has(e.target),
  );
  if (focus !== null && ids.has(focus)) {
    const near = new Set([focus]);
    for (const e of edges) {
      if (e.source === focus) near.add(e.target);
      if (e.target === focus) near.add(e.source);
    }
    nodes = nodes.filter((n) => near.has(n.id));
    ids = near;
    edges = edges.filter((e) => e.source === focus || e.target === focus);
  }
  const query = filters.search.trim().toLowerCase();
  const matches = query
    ? new Set(
        nodes
          .filter((n) => n.id.toLowerCase().includes(query) || n.text.toLowerCase().includes(query))
          .map((n) => n.id),
      )
    : null;
  return { nodes, edges, matches };
}
