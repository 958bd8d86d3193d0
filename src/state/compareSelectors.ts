import type { RunComparison, RunReport } from '../core/index.ts';
import { compareRuns } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';
import { reportFor, stateFacts } from './runReports.ts';

/** The Compare tab's memoised selectors, made once per store (`compareSelectors(store)`). */
export function createCompareSelectors() {
  let lastBefore: RunReport | undefined;
  let lastAfter: RunReport | undefined;
  let lastComparison: RunComparison | null = null;

  /**
   * The two chosen runs compared (before → after), folded from their logs with the project's
   * policy categories; recomputed only when a log or the policies change. Null until both are
   * loaded.
   */
  function selectComparison(state: AppState): RunComparison | null {
    const { compareBefore: before, compareAfter: after } = state;
    if (!before || !after) return null;
    const a = reportFor(before.events, stateFacts(state));
    const b = reportFor(after.events, stateFacts(state));
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
