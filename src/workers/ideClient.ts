import type { IdeAnswer, IdeQuery } from '../core/ide/queries.ts';
import type { Project } from '../core/index.ts';
import type { IdeRequest, IdeResponse } from './ideProtocol.ts';
import { workerReplies } from './workerReplies.ts';

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
  const replies = workerReplies<IdeResponse, IdeAnswer>(
    makeWorker,
    "The editor's worker",
    (reply) => reply.answer,
  );
  let lastId = 0;
  return (project, query) => {
    const request: IdeRequest = { id: ++lastId, project, query };
    try {
      return replies.send(request);
    } catch {
      return ideInThread(project, query);
    }
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
