import type { Diagnostic, Project, ProjectModel } from '../core/index.ts';
import type { AnalyzeRequest, AnalyzeResponse } from './protocol.ts';

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
  let worker: Worker | undefined;
  let latest = 0;
  const pending = new Map<number, { resolve: (a: Analysis) => void; reject: (e: Error) => void }>();

  const start = () => {
    const w = makeWorker();
    w.onmessage = (event: MessageEvent<AnalyzeResponse>) => {
      const answer = event.data;
      const waiting = pending.get(answer.id);
      pending.delete(answer.id);
      if (!waiting) return;
      if (answer.ok) waiting.resolve({ model: answer.model, diagnostics: answer.diagnostics });
      else waiting.reject(new Error(answer.error));
    };
    w.onerror = (event) => {
      event.preventDefault();
      for (const waiting of pending.values())
        waiting.reject(new Error(`The analysis worker stopped: ${event.message}`));
      pending.clear();
      w.terminate();
      worker = undefined;
    };
    return w;
  };

  return (project) => {
    const id = ++latest;
    // A worker busy with an older text cannot be interrupted between files (it never reads its
    // messages until done), so it is ended; the fresh one starts on the new text at once.
    if (pending.size > 0) {
      worker?.terminate();
      worker = undefined;
    }
    for (const [oldId, waiting] of pending) {
      waiting.reject(new Superseded());
      pending.delete(oldId);
    }
    try {
      worker ??= start();
    } catch {
      // No workers here: analyse on this thread, loading the analyser only now.
      return import('../core/analyze.ts').then(({ analyzeProject }) => analyzeProject(project));
    }
    return new Promise<Analysis>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      const request: AnalyzeRequest = { id, project };
      worker?.postMessage(request);
    });
  };
}
