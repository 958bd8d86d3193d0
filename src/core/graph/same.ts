import type { PolicyGraph } from './types.ts';

/**
 * Whether two graphs draw the same: same policies with the same fields, same edges with the same
 * weights and origins, same categories. Lets the view keep its old graph (and skip a redraw of a
 * thousand nodes) when a re-analysis changed nothing the graph shows. Linear in the graph's size.
 */
export function sameGraph(a: PolicyGraph, b: PolicyGraph): boolean {
  if (a === b) return true;
  if (
    a.nodes.length !== b.nodes.length ||
    a.edges.length !== b.edges.length ||
    a.categories.join('\n') !== b.categories.join('\n')
  ) {
    return false;
  }
  for (let i = 0; i < a.nodes.length; i++) {
    const x = a.nodes[i];
    const y = b.nodes[i];
    if (
      !x ||
      !y ||
      x.id !== y.id ||
      x.text !== y.text ||
      x.category !== y.category ||
      x.challenge !== y.challenge ||
      x.tools.join('\n') !== y.tools.join('\n') ||
      x.tables.join('\n') !== y.tables.join('\n') ||
      x.path.join('\n') !== y.path.join('\n')
    ) {
      return false;
    }
  }
  for (let i = 0; i < a.edges.length; i++) {
    const x = a.edges[i];
    const y = b.edges[i];
    if (
      !x ||
      !y ||
      x.id !== y.id ||
      x.weight !== y.weight ||
      x.origin !== y.origin ||
      x.reasons.join('\n') !== y.reasons.join('\n') ||
      (x.path ?? []).join('\n') !== (y.path ?? []).join('\n')
    ) {
      return false;
    }
  }
  return true;
}
