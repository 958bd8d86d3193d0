import type { Diagnostic, Project, ProjectModel } from '../core/index.ts';
import type { AnalyzeRequest, AnalyzeResponse } from './protocol.ts';
import { workerReplies } from './workerReplies.ts';

/** What analysing a project gives back to the store. */
export interface Analysis {
  readonly model: ProjectModel;
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads and lints a project; resolves with the newest answer, rejects a superseded request. */
export type Analyzer = (project: Project) => Promise<Analysis>;

/** Error for a request that a newer one replaced before it was answered. */
export class Superseded extends Error {
  constructor() {
    super('A newer analysis replaced this one.');
    this.name = 'Superseded';
  }
}

/**
 * Runs analysis in a Web Worker. Only the latest request is answered: a request that comes while
 * another is still being worked on ends that worker and starts a fresh one, so a slow analysis of
 * an old text never holds up the new one. A worker that crashes is replaced on the next request,
 * and analysis falls back to the main thread if workers fail.
 */
export function createWorkerAnalyzer(makeWorker: () => Worker): Analyzer {
  const replies = workerReplies<AnalyzeResponse, Analysis>(
    makeWorker,
    'The analysis worker',
    ({ model, diagnostics }) => ({ model, diagnostics }),
  );
  let latest = 0;
  return (project) => {
    const request: AnalyzeRequest = { id: ++latest, project };
    // A worker busy with an older text cannot be interrupted between files (it never reads its
    // messages until done), so it is ended; the fresh one starts on the new text at once.
    if (replies.waiting() > 0) replies.end(new Superseded());
    try {
      return replies.send(request);
    } catch {
      // No workers here: analyse on this thread, loading the analyser only now.
      return import('../core/analyze.ts').then(({ analyzeProject }) => analyzeProject(project));
    }
  };
}
