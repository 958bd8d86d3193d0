import { describe, expect, it } from 'vitest';
import type { PolicyGraph } from '../../core/index.ts';
import { testEdge, testNode } from '../../core/testing/graphs.ts';
import { NO_FILTERS } from '../../state/slices/graphSlice.ts';
import { visibleGraph } from './visibleGraph.ts';

const node = (id: string, category: string, tools: string[] = []) =>
  testNode(id, { category, tools, challenge: 2, text: `Policy ${id} about refunds` });
const edge = testEdge;

const graph: PolicyGraph = {
  nodes: [
    node('a', 'tone'),
    node('b', 'refunds', ['refund']),
    node('c', 'refunds'),
    node('d', 'tone'),
  ],
  edges: [edge('a', 'b', 8, 'manual'), edge('b', 'c', 3, 'heuristic'), edge('c', 'd', 0, 'manual')],
  categories: ['tone', 'refunds'],
};

const ids = (v: { nodes: readonly { id: string }[] }) => v.nodes.map((n) => n.id);

describe('visibleGraph', () => {
  it('hides categories, filters by tool, and never draws a weight of 0', () => {
    expect(ids(visibleGraph(graph, { ...NO_FILTERS, hiddenCategories: ['tone'] }, null))).toEqual([
      'b',
      'c',
    ]);
    expect(ids(visibleGraph(graph, { ...NO_FILTERS, tool: 'refund' }, null))).toEqual(['b']);
    expect(visibleGraph(graph, NO_FILTERS, null).edges.map((e) => e.id)).toEqual(['a|b', 'b|c']);
  });

  it('drops light and heuristic edges on request', () => {
    expect(visibleGraph(graph, { ...NO_FILTERS, minWeight: 5 }, null).edges).toHaveLength(1);
    expect(visibleGraph(graph, { ...NO_FILTERS, showHeuristic: false }, null).edges).toHaveLength(
      1,
    );
  });

  it('focuses on a policy and its neighbours', () => {
    const v = visibleGraph(graph, NO_FILTERS, 'b');
    expect(ids(v)).toEqual(['a', 'b', 'c']);
    expect(v.edges.every((e) => e.source === 'b' || e.target === 'b')).toBe(true);
  });

  it('marks search matches by id or text without hiding the rest', () => {
    const v = visibleGraph(graph, { ...NO_FILTERS, search: 'Y C ' }, null);
    expect(ids(v)).toHaveLength(4);
    expect([...(v.matches ?? [])]).toEqual(['c']);
  });
});
