import type { GraphEdge } from '../../core/index.ts';
import { edgeStyle, edgeWidth, removeRelation, setRelation } from '../../core/index.ts';
import type { AppStore } from '../../state/createAppStore.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';

/** Where each drawn node is, by policy id. */
export function positionsOf(
  nodes: readonly PolicyFlowNode[],
): ReadonlyMap<string, { x: number; y: number }> {
  return new Map(nodes.map((n) => [n.id, n.position]));
}

/** The same stroke the SVG export draws. */
export function styleOf(edge: GraphEdge, theme: 'light' | 'dark') {
  const { color, opacity, dash } = edgeStyle(edge.origin, theme);
  return {
    stroke: color,
    strokeOpacity: opacity,
    strokeWidth: edgeWidth(edge.weight),
    ...(dash ? { strokeDasharray: dash } : {}),
  };
}

/** Removes an edge: a written relation is deleted; a heuristic one is overruled with weight 0. */
export function dropEdge(store: AppStore, edge: GraphEdge) {
  const label = `Remove the relation between ${edge.source} and ${edge.target}`;
  store
    .getState()
    .editPolicies(label, (text) =>
      edge.origin === 'heuristic'
        ? setRelation(text, edge.source, edge.target, 0, 'manual')
        : removeRelation(text, edge.source, edge.target),
    );
}
