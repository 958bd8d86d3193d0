import { useEffect, useMemo, useRef } from 'react';
import type { PolicyGraph } from '../../core/index.ts';
import { useAppStoreApi } from '../../state/useAppStore.ts';

/**
 * Lays the graph out again whenever its policies or their edges change: from scratch the first
 * time, from the positions it has after that. A new analysis that draws the same lays out nothing.
 */
export function useRelayout(graph: PolicyGraph) {
  const store = useAppStoreApi();
  const shape = useMemo(
    () =>
      `${graph.nodes.map((n) => `${n.id}:${n.challenge}`).join(',')}|${graph.edges
        .map((e) => `${e.id}:${e.weight}`)
        .join(',')}`,
    [graph],
  );
  const firstLayout = useRef(true);
  useEffect(() => {
    if (graph.nodes.length === 0) return;
    const fresh = firstLayout.current;
    firstLayout.current = false;
    void store.getState().runLayout(graph, { fresh });
    // `shape` stands for the graph: a new analysis with the same policies and edges lays out nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, store]);
}
