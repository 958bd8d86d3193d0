import { useEffect, useMemo } from 'react';
import type { GraphEdge } from '../../core/index.ts';
import { failureRate, heatColor, pairKey } from '../../core/index.ts';
import { graphResultsSelectors } from '../../state/graphResultsSelectors.ts';
import { graphRunId, heldLog } from '../../state/slices/graphRunSlice.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import type { HeatMarks } from './flowElements.ts';

/**
 * The run whose results the graph shows (the project's latest unless one is picked), read when
 * needed, and the heat marks it gives: each policy coloured by its failure rate there, grey
 * where nothing tested it, and which relations a dialogue tested. Null when no run is shown.
 */
export function useHeatmap(theme: 'light' | 'dark'): HeatMarks | null {
  const store = useAppStoreApi();
  const projectId = useAppStore((s) => s.projectId);
  const refreshRuns = useAppStore((s) => s.refreshRuns);
  const wanted = useAppStore(graphRunId);
  const held = useAppStore((s) => (wanted === null ? true : heldLog(s, wanted) !== undefined));
  const results = useAppStore(graphResultsSelectors(store).selectGraphResults);

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns, projectId]);
  useEffect(() => {
    if (wanted !== null && !held) void store.getState().loadGraphRun(wanted);
  }, [store, wanted, held]);

  return useMemo(() => {
    if (!results) return null;
    const rateOf = (id: string) => failureRate(results.byPolicy.get(id));
    return {
      rate: rateOf,
      colour: (id: string) => heatColor(rateOf(id), theme),
      tested: (edge: GraphEdge) => results.testedPairs.has(pairKey(edge.source, edge.target)),
    };
  }, [results, theme]);
}
