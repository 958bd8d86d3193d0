import type { RunReport } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';
import { reportFor, stateFacts } from './runReports.ts';

/** The run report's memoised selector, made once per store (`runSelectors(store)`). */
export function createRunSelectors() {
  /** The report of the run on screen, folded from its log; recomputed only when the log grows. */
  function selectRunReport(state: AppState): RunReport | null {
    const events = state.currentRun?.events;
    if (!events) return null;
    return reportFor(events, stateFacts(state));
  }

  return { selectRunReport };
}

/** This store's run selectors: `runSelectors(store).select...`. */
export const runSelectors = perStore(createRunSelectors);
