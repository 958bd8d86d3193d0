import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../core/index.ts';
import { PROJECT_FILES, buildGraph, parseProject, setRelations } from '../../core/index.ts';
import { NO_FILTERS } from '../../state/slices/graphSlice.ts';
import { MODEL_EDGES_PER_POLICY, MODEL_EDGE_FLOOR, visibleGraph } from './visibleGraph.ts';

/*
 * The airline example with every pair rated by a scripted model: the graph a person sees by
 * default keeps its hand-written edges and only the stronger model edges; the heuristic guesses
 * are drawn again on request.
 */

const folder = fileURLToPath(new URL('../../../public/examples/airline/', import.meta.url));
const files = Object.fromEntries(
  PROJECT_FILES.map(({ name }) => [name, readFileSync(`${folder}${name}`, 'utf8')]),
) as Project['files'];

/** A fixed, made-up rating of a pair: mostly weak, as real ratings of unrelated pairs are. */
function scripted(a: string, b: string): number {
  let h = 7;
  for (const ch of `${a}|${b}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5, 6, 7, 8][h % 16] ?? 0;
}

describe('the airline graph after a model rated every pair', () => {
  const before = buildGraph(parseProject({ name: 'Airline', files }).model);
  const ids = before.nodes.map((n) => n.id);
  const ratings = ids.flatMap((a, i) =>
    ids.slice(i + 1).map((b) => ({ a, b, weight: scripted(a, b), reason: 'scripted' })),
  );
  const edit = setRelations(files['policies.yaml'], ratings);
  if (!edit.ok) throw new Error(edit.message);
  const after = buildGraph(
    parseProject({ name: 'Airline', files: { ...files, 'policies.yaml': edit.text } }).model,
  );
  const model = after.edges.filter((e) => e.origin === 'model');

  it('draws hand-written edges as before and only each policy’s strongest model edges', () => {
    expect(ids.length).toBe(58);
    expect(model.length).toBeGreaterThan(1_300);
    const shown = visibleGraph(after, NO_FILTERS, null);
    const kept = (origin: string) => shown.edges.filter((e) => e.origin === origin);
    const manual = after.edges.filter((e) => e.origin === 'manual' && e.weight > 0);
    expect(kept('manual')).toEqual(manual);
    const drawn = kept('model');
    expect(drawn.every((e) => e.weight >= MODEL_EDGE_FLOOR)).toBe(true);
    expect(drawn.length).toBeLessThanOrEqual(ids.length * MODEL_EDGES_PER_POLICY);
    // Every drawn model edge is among the strongest of one of its policies.
    const strongest = (id: string) =>
      Math.min(
        ...model
          .filter((e) => e.source === id || e.target === id)
          .map((e) => e.weight)
          .sort((a, b) => b - a)
          .slice(0, MODEL_EDGES_PER_POLICY),
      );
    for (const e of drawn) {
      expect(e.weight).toBeGreaterThanOrEqual(Math.min(strongest(e.source), strongest(e.target)));
    }
    const nonZero = model.filter((e) => e.weight > 0).length;
    expect(shown.weakModelEdges).toBe(nonZero - drawn.length);
    expect(shown.weakModelEdges).toBeGreaterThan(1_000);
  });

  it('draws the heuristic edges only on request, and all model edges once a weight is set', () => {
    const heuristic = after.edges.filter((e) => e.origin === 'heuristic' && e.weight > 0);
    expect(heuristic.length).toBeGreaterThan(0);
    const shown = visibleGraph(after, NO_FILTERS, null);
    expect(shown.edges.filter((e) => e.origin === 'heuristic')).toEqual([]);
    const asked = visibleGraph(after, { ...NO_FILTERS, showHeuristic: true }, null);
    expect(asked.edges.filter((e) => e.origin === 'heuristic')).toEqual(heuristic);
    const all = visibleGraph(after, { ...NO_FILTERS, minWeight: 1 }, null);
    expect(all.weakModelEdges).toBe(0);
    expect(all.edges.filter((e) => e.origin === 'model')).toHaveLength(
      model.filter((e) => e.weight > 0).length,
    );
    expect(before.edges.some((e) => e.origin === 'model')).toBe(false);
  });
});
