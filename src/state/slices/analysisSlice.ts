import type { StateCreator } from 'zustand';
import type { Project } from '../../core/index.ts';
import type { Analysis } from '../../workers/analysisClient.ts';
import type { AppState } from '../createAppStore.ts';
import type { CurrentAnalysis } from '../currentAnalysis.ts';
import { awaitCurrentAnalysis } from '../currentAnalysis.ts';

export interface AnalysisSlice {
  /** The latest analysis, and the project texts it was made from. */
  analysis: (Analysis & { readonly files: Project['files'] }) | null;
  analysisError: string | null;
  /** How many analyses have failed: a new failure, even with the same message, is told by it. */
  analysisFailures: number;
  setAnalysis: (analysis: Analysis, files: Project['files']) => void;
  setAnalysisError: (message: string | null) => void;
  /**
   * The analysis of the project's current text: at once when the store has it, else once the
   * analyser answers (asked at once, without the settling delay). Running, playing and
   * re-checking plan from its model, so the page never parses a whole project itself.
   */
  currentAnalysis: () => Promise<CurrentAnalysis>;
}

/** Asks for the analysis of the project's current text now; wired by the store's factory. */
export interface AnalysisTrigger {
  now: () => void;
}

/** Holds what the analysis worker last said about the project. */
export const createAnalysisSlice =
  (trigger: AnalysisTrigger): StateCreator<AppState, [], [], AnalysisSlice> =>
  (set, _get, api) => ({
    currentAnalysis: () =>
      awaitCurrentAnalysis(api, () => {
        trigger.now();
      }),
    analysis: null,
    analysisError: null,
    analysisFailures: 0,
    setAnalysis: (analysis, files) => {
      set({ analysis: { ...analysis, files }, analysisError: null });
    },
    setAnalysisError: (analysisError) => {
      set((state) => ({
        analysisError,
        analysisFailures: state.analysisFailures + (analysisError === null ? 0 : 1),
      }));
    },
  });
