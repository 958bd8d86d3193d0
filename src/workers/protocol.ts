import type { Diagnostic, Project, ProjectModel } from '../core/index.ts';

/** Asks the analysis worker to read and lint a project. */
export interface AnalyzeRequest {
  readonly id: number;
  readonly project: Project;
}

/** The worker's answer: plain data only, so it crosses the thread boundary as is. */
export type AnalyzeResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly model: ProjectModel;
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly id: number; readonly ok: false; readonly error: string };
