import type { StoreApi } from 'zustand';
import type { Project } from '../core/index.ts';
import type { Analysis } from '../workers/analysisClient.ts';
import type { AppState } from './createAppStore.ts';

/** The analysis of the project's text as it is now, or why there is none. */
export type CurrentAnalysis =
  | { readonly ok: true; readonly analysis: Analysis; readonly files: Project['files'] }
  | { readonly ok: false; readonly problem: string };

/**
 * Resolves with the analysis of the text the project has when the analysis arrives: the one in
 * the store when it is of the current text, else the next one that is (an edit while waiting is
 * waited for too). Never parses on this thread: the analysis comes from the analyser (a worker in
 * the page). `analyzeNow` asks for the current text's analysis without the settling delay (again
 * when it failed before). A failure while waiting ends the wait with its message.
 */
export function awaitCurrentAnalysis(
  store: Pick<StoreApi<AppState>, 'getState' | 'subscribe'>,
  analyzeNow: () => void,
): Promise<CurrentAnalysis> {
  const settled = (state: AppState): CurrentAnalysis | undefined =>
    state.analysis && state.analysis.files === state.project.files
      ? { ok: true, analysis: state.analysis, files: state.analysis.files }
      : undefined;
  const now = settled(store.getState());
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = store.subscribe((state, previous) => {
      const answer =
        settled(state) ??
        (state.analysisError !== null && state.analysisFailures !== previous.analysisFailures
          ? {
              ok: false as const,
              problem: `The project could not be checked: ${state.analysisError}`,
            }
          : undefined);
      if (!answer) return;
      stop();
      resolve(answer);
    });
    analyzeNow();
  });
}
