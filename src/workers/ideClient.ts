import type { IdeAnswer, IdeQuery } from '../core/ide/queries.ts';
import type { Project } from '../core/index.ts';
import type { IdeRequest, IdeResponse } from './ideProtocol.ts';

/** Answers the editor's questions about the whole project (see core's `ide/queries.ts`). */
export type IdeAsk = (project: Project, query: IdeQuery) => Promise<IdeAnswer>;

const defaultWorker = () =>
  new Worker(new URL('./ide.worker.ts', import.meta.url), { type: 'module' });

/**
 * Answers in a Web Worker that keeps its last parse (`ideProtocol.ts`), in the order asked. A
 * worker that crashes rejects what it was asked and is replaced on the next question. Where
 * workers cannot be made (tests), the question is answered on this thread.
 */
export function createIdeClient(makeWorker: () => Worker = defaultWorker): IdeAsk {
  let worker: Worker | undefined;
  let lastId = 0;
  const pending = new Map<
    number,
    { resolve: (a: IdeAnswer) => void; reject: (e: Error) => void }
  >();

  const start = () => {
    const w = makeWorker();
    w.onmessage = (event: MessageEvent<IdeResponse>) => {
      const answer = event.data;
      const waiting = pending.get(answer.id);
      pending.delete(answer.id);
      if (!waiting) return;
      if (answer.ok) waiting.resolve(answer.answer);
      else waiting.reject(new Error(answer.error));
    };
    w.onerror = (event) => {
      event.preventDefault();
      for (const waiting of pending.values())
        waiting.reject(new Error(`The editor's worker stopped: ${event.message}`));
      pending.clear();
      w.terminate();
      worker = undefined;
    };
    return w;
  };

  return (project, query) => {
    try {
      worker ??= start();
    } catch {
      return ideInThread(project, query);
    }
    const id = ++lastId;
    return new Promise<IdeAnswer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      const request: IdeRequest = { id, project, query };
      worker?.postMessage(request);
    });
  };
}

/** Answers on this thread, loading the parser only now (tests, and where no worker can be made). */
export const ideInThread: IdeAsk = async (project, query) => {
  const [{ parseProject }, { answerIdeQuery }] = await Promise.all([
    import('../core/format/parseProject.ts'),
    import('../core/ide/queries.ts'),
  ]);
  return answerIdeQuery(project, parseProject(project), query);
};
