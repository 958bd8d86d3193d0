import type { PolicyFacts, RunReport, SimEvent } from '../core/index.ts';
import { reportOf } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';

/** The run report's memoised selector, made once per store (`runSelectors(store)`). */
export function createRunSelectors() {
  let lastEvents: readonly SimEvent[] | undefined;
  let lastPolicies: unknown;
  let lastReport: RunReport | null = null;

  /** The report of the run on screen, folded from its log; recomputed only when the log grows. */
  function selectRunReport(state: AppState): RunReport | null {
    const events = state.currentRun?.events;
    if (!events) return null;
    const policies = state.analysis?.model.policies;
    if (events === lastEvents && policies === lastPolicies) return lastReport;
    const facts: PolicyFacts = new Map(
      (policies ?? []).map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
    );
    lastEvents = events;
    lastPolicies = policies;
    lastReport = reportOf(events, facts);
    return lastReport;
  }

  return { selectRunReport };
}

/** This store's run selectors: `runSelectors(store).select...`. */
export const runSelectors = perStore(createRunSelectors);
