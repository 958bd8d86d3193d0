import { describe, expect, it } from 'vitest';
import type { Policy, ProjectModel, Relation, Tool } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { miniProject } from '../testing/miniProject.ts';
import { adjacencyOf, buildGraph } from './build.ts';

const policy = (id: string, extra: Partial<Policy> = {}): Policy => ({
  path: ['policies', 0],
  id,
  text: '',
  category: 'general',
  challenge: 1,
  tools: [],
  ...extra,
});

const relation = (
  a: string,
  b: string,
  weight: number,
  origin: Relation['origin'] = 'manual',
  index = 0,
): Relation => ({ path: ['relations', index], between: [a, b], weight, origin });

const tool = (name: string, tables: string[]): Tool => ({
  path: ['tools', 0],
  name,
  description: '',
  kind: 'read',
  parameters: {},
  effects: tables.map((table) => ({
    path: ['tools', 0, 'effects', 0],
    op: 'select',
    table,
    columns: {},
  })),
});

const model = (parts: Partial<ProjectModel>): ProjectModel => ({
  prompt: '',
  policies: [],
  relations: [],
  tools: [],
  tables: [],
  guards: [],
  checks: [],
  scenarios: [],
  prompts: [],
  ...parts,
});

describe('buildGraph', () => {
  it('makes a node per policy, with the tables its tools touch and its test history', () => {
    const graph = buildGraph(
      model({
        policies: [
          policy('verify', { category: 'identity', challenge: 2, tools: ['get_user'] }),
          policy('refund', { category: 'refunds', challenge: 4, tools: ['refund', 'get_user'] }),
          policy('tone', { category: 'identity' }),
        ],
        tools: [tool('get_user', ['users']), tool('refund', ['orders', 'refunds', 'orders'])],
      }),
    );
    expect(graph.nodes.map((n) => [n.id, n.category, n.challenge, n.tables])).toEqual([
      ['verify', 'identity', 2, ['users']],
      ['refund', 'refunds', 4, ['orders', 'refunds', 'users']],
      ['tone', 'identity', 1, []],
    ]);
    expect(graph.categories).toEqual(['identity', 'refunds']);
  });

  it('turns written relations into edges with ordered ids, keeping weight, origin and path', () => {
    const graph = buildGraph(
      model({
        policies: [policy('b'), policy('a'), policy('c')],
        relations: [relation('b', 'a', 6, 'manual', 0), relation('a', 'c', 0, 'model', 1)],
      }),
    );
    expect(graph.edges).toEqual([
      {
        id: 'a|b',
        source: 'a',
        target: 'b',
        weight: 6,
        origin: 'manual',
        reasons: [],
        path: ['relations', 0],
      },
      {
        id: 'a|c',
        source: 'a',
        target: 'c',
        weight: 0,
        origin: 'model',
        reasons: [],
        path: ['relations', 1],
      },
    ]);
  });

  it('keeps the first of a pair written twice and skips unknown or self relations', () => {
    const graph = buildGraph(
      model({
        policies: [policy('a'), policy('b'), policy('a', { category: 'later' })],
        relations: [
          relation('a', 'ghost', 5, 'manual', 0),
          relation('a', 'a', 5, 'manual', 1),
          relation('b', 'a', 3, 'model', 2),
          relation('a', 'b', 9, 'manual', 3),
        ],
      }),
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(graph.categories).toEqual(['general']);
    expect(graph.edges).toHaveLength(1);
    expect(graph.edges[0]).toMatchObject({ id: 'a|b', weight: 3, origin: 'model' });
    expect(graph.edges[0]?.path).toEqual(['relations', 2]);
  });

  it('adds heuristic edges with reasons only for pairs that no relation links', () => {
    const policies = [
      policy('refund-window', { text: 'Refund vouchers expire.', tools: ['refund_order'] }),
      policy('refund-approval', {
        text: 'Refund vouchers need approval.',
        tools: ['refund_order'],
      }),
      policy('greeting', { text: 'Greet warmly.' }),
      policy('refund-limit', { tools: ['refund_order'] }),
    ];
    const tools = [tool('refund_order', ['orders'])];
    const graph = buildGraph(
      model({ policies, tools, relations: [relation('refund-limit', 'refund-window', 0)] }),
    );
    const heuristic = graph.edges.filter((e) => e.origin === 'heuristic');
    expect(heuristic.map((e) => e.id).sort()).toEqual([
      'refund-approval|refund-limit',
      'refund-approval|refund-window',
    ]);
    const both = heuristic.find((e) => e.id === 'refund-approval|refund-window');
    expect(both?.reasons).toEqual([
      'tool refund_order',
      'table orders',
      'terms "refund", "voucher"',
    ]);
    expect(both?.path).toBeUndefined();
    // The written weight 0 wins over what the pair shares.
    expect(graph.edges.find((e) => e.id === 'refund-limit|refund-window')?.weight).toBe(0);
    expect(buildGraph(model({ policies, tools }), { heuristic: false }).edges).toEqual([]);
  });

  it('reads a parsed project, paths included', () => {
    const graph = buildGraph(parseProject(miniProject()).model);
    expect(graph.nodes.map((n) => [n.id, n.tables, n.path])).toEqual([
      ['verify-identity', ['users'], ['policies', 0]],
      ['refund-window', ['orders'], ['policies', 1]],
    ]);
    expect(graph.edges.map((e) => [e.id, e.weight, e.origin])).toEqual([
      ['refund-window|verify-identity', 6, 'manual'],
    ]);
  });
});

describe('adjacencyOf', () => {
  it('lists positive edges both ways with running totals, and leaves zero weights out', () => {
    const graph = buildGraph(
      model({
        policies: [policy('a', { challenge: 3 }), policy('b'), policy('c')],
        relations: [relation('a', 'b', 2), relation('a', 'c', 5), relation('b', 'c', 0)],
      }),
      { heuristic: false },
    );
    const adj = adjacencyOf(graph);
    const neighbours = (i: number) =>
      [...adj.target.slice(adj.offset[i], adj.offset[i + 1])].map((j) => adj.ids[j]);
    expect(neighbours(0)).toEqual(['b', 'c']);
    expect(neighbours(1)).toEqual(['a']);
    expect(neighbours(2)).toEqual(['a']);
    expect([...adj.cumulative.slice(adj.offset[0], adj.offset[1])]).toEqual([2, 7]);
    expect([...adj.challenge]).toEqual([3, 1, 1]);
  });
});
