import { describe, expect, it } from 'vitest';
import type { PolicyGraph } from '../../core/index.ts';
import { testEdge, testNode } from '../../core/testing/graphs.ts';
import { NO_FILTERS } from '../../state/slices/graphSlice.ts';
import { MODEL_EDGES_PER_POLICY, MODEL_EDGE_FLOOR, visibleGraph } from './visibleGraph.ts';

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

  it('stops drawing heuristic guesses once a model has rated the project, unless asked to', () => {
    const rated: PolicyGraph = { ...graph, edges: [...graph.edges, edge('a', 'd', 6, 'model')] };
    const origins = (g: PolicyGraph, filters = NO_FILTERS) =>
      visibleGraph(g, filters, null).edges.map((e) => e.origin);
    expect(origins(graph)).toContain('heuristic');
    expect(origins(rated)).toEqual(['manual', 'model']);
    expect(origins(rated, { ...NO_FILTERS, showHeuristic: true })).toContain('heuristic');
    expect(origins(graph, { ...NO_FILTERS, showHeuristic: false })).not.toContain('heuristic');
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

  it('hides weak model edges until a weight is set, and counts them', () => {
    const rated: PolicyGraph = {
      ...graph,
      edges: [
        edge('a', 'b', 1, 'manual'),
        edge('a', 'c', 2, 'heuristic'),
        edge('a', 'd', MODEL_EDGE_FLOOR - 1, 'model'),
        edge('b', 'c', MODEL_EDGE_FLOOR, 'model'),
        edge('b', 'd', 1, 'model'),
        edge('c', 'd', 0, 'model'),
      ],
    };
    const shown = visibleGraph(rated, { ...NO_FILTERS, showHeuristic: true }, null);
    expect(shown.edges.map((e) => e.id)).toEqual(['a|b', 'a|c', 'b|c']);
    // A weight of 0 says "never together": not drawn, and not counted as hidden either.
    expect(shown.weakModelEdges).toBe(2);
    const all = visibleGraph(rated, { ...NO_FILTERS, minWeight: 0, showHeuristic: true }, null);
    expect(all.edges).toHaveLength(5);
    expect(all.weakModelEdges).toBe(0);
    const set = visibleGraph(rated, { ...NO_FILTERS, minWeight: 2, showHeuristic: true }, null);
    expect(set.edges.map((e) => e.id)).toEqual(['a|c', 'a|d', 'b|c']);
    expect(set.weakModelEdges).toBe(0);
    const focused = visibleGraph(rated, NO_FILTERS, 'd');
    expect(focused.weakModelEdges).toBe(2);
    expect(visibleGraph(rated, NO_FILTERS, 'c').weakModelEdges).toBe(0);
    expect(visibleGraph(rated, { ...NO_FILTERS, hiddenCategories: ['tone'] }, null)).toMatchObject({
      weakModelEdges: 0,
    });
  });

  it('draws only each policy’s strongest model edges by default', () => {
    // A hub rated against six policies (10 down to 5); s4 and s5 each have four edges of 10
    // elsewhere, so their edges to the hub are among nobody's strongest four.
    const spokes = ['s0', 's1', 's2', 's3', 's4', 's5'];
    const leaves = ['s4', 's5'].flatMap((s) => [0, 1, 2, 3].map((k) => [s, `${s}l${k}`] as const));
    const hub: PolicyGraph = {
      nodes: [
        node('hub', 'tone'),
        ...spokes.map((s) => node(s, 'tone')),
        ...leaves.map(([, leaf]) => node(leaf, 'tone')),
      ],
      edges: [
        ...spokes.map((s, i) => edge('hub', s, 10 - i, 'model')),
        ...leaves.map(([s, leaf]) => edge(s, leaf, 10, 'model')),
        edge('s0', 's1', MODEL_EDGE_FLOOR - 1, 'model'),
        edge('hub', 's5', 1, 'manual'),
      ],
      categories: ['tone'],
    };
    expect(MODEL_EDGES_PER_POLICY).toBe(4);
    const shown = visibleGraph(hub, NO_FILTERS, null);
    const drawn = new Set(shown.edges.map((e) => e.id));
    expect(['hub|s0', 'hub|s1', 'hub|s2', 'hub|s3'].every((id) => drawn.has(id))).toBe(true);
    expect(leaves.every(([s, leaf]) => drawn.has(`${s}|${leaf}`))).toBe(true);
    expect(drawn.has('hub|s4')).toBe(false);
    expect(drawn.has('s0|s1')).toBe(false);
    expect(shown.edges.filter((e) => e.id === 'hub|s5').map((e) => e.origin)).toEqual(['manual']);
    expect(shown.weakModelEdges).toBe(3);
    // A weight set by hand shows every model edge over it.
    expect(visibleGraph(hub, { ...NO_FILTERS, minWeight: 5 }, null).edges).toHaveLength(
      hub.edges.length - 2,
    );
  });
});
