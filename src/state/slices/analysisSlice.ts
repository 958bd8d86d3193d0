import type { StateCreator } from 'zustand';
import type { Project } from '../../core/index.ts';
import type { Analysis } from '../../workers/analysisClient.ts';
import type { AppState } from '../createAppStore.ts';

export interface AnalysisSlice {
  /** The latest analysis, and the project texts it was made from. */
  analysis: (Analysis & { readonly files: Project['files'] }) | null;
  analysisError: string | null;
  setAnalysis: (analysis: Analysis, files: Project['files']) => void;
  setAnalysisError: (message: string | null) => void;
}

/** Holds what the analysis worker last said about the project. */
export const createAnalysisSlice: StateCreator<AppState, [], [], AnalysisSlice> = (set) => ({
  analysis: null,
  analysisError: null,
  setAnalysis: (analysis, files) => {
    set({ analysis: { ...analysis, files }, analysisError: null });
  },
  setAnalysisError: (analysisError) => {
    set({ analysisError });
  },
});
