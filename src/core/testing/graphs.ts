import type { RelationOrigin } from '../format/model.ts';
import type { TextSplice } from '../format/yamlEdit.ts';
import type { GraphEdge, GraphNode, PolicyGraph } from '../graph/types.ts';

/** A policy node for tests: a category and challenge, everything else empty unless given. */
export function testNode(id: string, fields: Partial<Omit<GraphNode, 'id'>> = {}): GraphNode {
  return {
    id,
    text: '',
    category: 'general',
    challenge: 3,
    tools: [],
    tables: [],
    path: [],
    ...fields,
  };
}

/** An edge for tests, with its id in the graph's `source|target` form. */
export function testEdge(
  source: string,
  target: string,
  weight: number,
  origin: RelationOrigin = 'manual',
): GraphEdge {
  return { id: `${source}|${target}`, source, target, weight, origin, reasons: [] };
}

/**
 * A graph from challenges (node i is `name(i)`) and `[i, j, weight]` edges (weight 1 when left
 * out), with each edge's ends in id order as `buildGraph` writes them.
 */
export function graphOf(
  challenges: readonly number[],
  edges: readonly (readonly number[])[],
  name: (i: number) => string = (i) => `p${i}`,
): PolicyGraph {
  return {
    nodes: challenges.map((challenge, i) => testNode(name(i), { challenge })),
    edges: edges.map(([a = 0, b = 0, weight = 1]) => {
      const [x, y] = [name(a), name(b)];
      return x < y ? testEdge(x, y, weight) : testEdge(y, x, weight);
    }),
    categories: ['general'],
  };
}

/**
 * Applies splices one by one in the order given, as graph edits promise callers may; throws if
 * they are not in descending, non-overlapping order.
 */
export function replaySplices(text: string, splices: readonly TextSplice[]): string {
  let previous = Infinity;
  let result = text;
  for (const { start, end, insert } of splices) {
    if (end > previous) throw new Error(`Splices out of order: ${end} after ${previous}.`);
    previous = start;
    result = result.slice(0, start) + insert + result.slice(end);
  }
  return result;
}
