import { useMemo } from 'react';
import type { PolicyGraph } from '../../core/index.ts';
import { categoryColor } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import type { HeatMarks } from './flowElements.ts';
import { policyNodes } from './flowElements.ts';
import { visibleGraph } from './visibleGraph.ts';

/**
 * What the canvas draws of the graph: the filters and focus applied, the policies that have a
 * position as React Flow nodes, the relations between those, and the colour of each category
 * (each policy coloured by a run's results instead, with `heat`).
 */
export function usePolicyNodes(
  graph: PolicyGraph,
  theme: 'light' | 'dark',
  heat: HeatMarks | null = null,
) {
  const filters = useAppStore((s) => s.graphFilters);
  const focus = useAppStore((s) => s.focusedPolicy);
  const selected = useAppStore((s) => s.selectedPolicy);
  const positions = useAppStore((s) => s.graphLayout.positions);
  const placed = useAppStore((s) => s.project.layout);
  const highlighted = useAppStore((s) => s.highlightedPolicies);
  const replay = useAppStore(replaySelectors(useAppStoreApi()).selectGraphLight);

  const visible = useMemo(() => visibleGraph(graph, filters, focus), [graph, filters, focus]);
  const colourOf = useMemo(() => {
    const index = new Map(graph.categories.map((c, i) => [c, i]));
    return (category: string) => categoryColor(index.get(category) ?? 0, theme);
  }, [graph.categories, theme]);

  const nodes = useMemo(
    () =>
      policyNodes(visible, {
        positions,
        placed,
        selectedId: selected?.id,
        // A previewed sample picks its policies out; otherwise the search does.
        picked: highlighted ? new Set(highlighted) : visible.matches,
        colourOf,
        replay,
        heat,
      }),
    [visible, positions, placed, selected, colourOf, highlighted, replay, heat],
  );
  // Keyed on which nodes are drawn, not on the nodes: re-marking them (a replay step, a selection)
  // leaves the edges as they were, so React Flow does not redraw every edge.
  const drawnKey = useMemo(() => nodes.map((n) => n.id).join('\u0000'), [nodes]);
  const edges = useMemo(() => {
    const drawn = new Set(drawnKey.split('\u0000'));
    return visible.edges.filter((e) => drawn.has(e.source) && drawn.has(e.target));
  }, [visible, drawnKey]);

  return { nodes, edges, colourOf };
}
