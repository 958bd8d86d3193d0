import type { RunResults, SimEvent } from '../core/index.ts';
import { policyResults } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';
import { policyFactsOf, reportFor } from './runReports.ts';
import { graphRunId, heldLog } from './slices/graphRunSlice.ts';

/** The results the graph shows: which run, and each policy's counts in it from its report. */
export interface GraphResults extends RunResults {
  readonly runId: string;
  readonly title: string;
}

/** The graph's memoised run results, made once per store (`graphResultsSelectors(store)`). */
export function createGraphResultsSelectors() {
  let last:
    { events: readonly SimEvent[]; policies: unknown; id: string; title: string } | undefined;
  let lastResults: GraphResults | null = null;

  /**
   * The chosen run's results per policy, folded by the run report (`reportOf`, the numbers the
   * Simulate pane shows) and laid out by `policyResults`; null for no run, or one not read yet.
   */
  function selectGraphResults(state: AppState): GraphResults | null {
    const id = graphRunId(state);
    const events = id === null ? undefined : heldLog(state, id);
    if (id === null || !events) return null;
    const policies = state.analysis?.model.policies;
    const title = state.runList.find((r) => r.id === id)?.title ?? id;
    if (
      last?.events === events &&
      last.policies === policies &&
      last.id === id &&
      last.title === title
    )
      return lastResults;
    last = { events, policies, id, title };
    lastResults = {
      ...policyResults(reportFor(events, policyFactsOf(policies))),
      runId: id,
      title,
    };
    return lastResults;
  }

  return { selectGraphResults };
}

/** This store's graph results selectors: `graphResultsSelectors(store).select...`. */
export const graphResultsSelectors = perStore(createGraphResultsSelectors);
