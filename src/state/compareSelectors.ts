import type { PolicyFacts, RunComparison, RunReport, SimEvent } from '../core/index.ts';
import { compareRuns, reportOf } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';

/** The Compare tab's memoised selectors, made once per store (`compareSelectors(store)`). */
export function createCompareSelectors() {
  let lastPolicies: unknown;
  let facts: PolicyFacts = new Map();
  const reports = new Map<'before' | 'after', { events: readonly SimEvent[]; report: RunReport }>();
  let lastBefore: RunReport | undefined;
  let lastAfter: RunReport | undefined;
  let lastComparison: RunComparison | null = null;

  const reportFor = (side: 'before' | 'after', events: readonly SimEvent[]) => {
    const held = reports.get(side);
    if (held?.events === events) return held.report;
    const report = reportOf(events, facts);
    reports.set(side, { events, report });
    return report;
  };

  /**
   * The two chosen runs compared (before → after), folded from their logs with the project's
   * policy categories; recomputed only when a log or the policies change. Null until both are
   * loaded.
   */
  function selectComparison(state: AppState): RunComparison | null {
    const { compareBefore: before, compareAfter: after } = state;
    if (!before || !after) return null;
    const policies = state.analysis?.model.policies;
    if (policies !== lastPolicies) {
      lastPolicies = policies;
      facts = new Map(
        (policies ?? []).map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
      );
      reports.clear();
    }
    const a = reportFor('before', before.events);
    const b = reportFor('after', after.events);
    if (a === lastBefore && b === lastAfter) return lastComparison;
    lastBefore = a;
    lastAfter = b;
    lastComparison = compareRuns(a, b);
    return lastComparison;
  }

  return { selectComparison };
}

/** This store's compare selectors: `compareSelectors(store).selectComparison`. */
export const compareSelectors = perStore(createCompareSelectors);
