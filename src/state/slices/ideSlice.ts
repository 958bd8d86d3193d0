import type { StateCreator } from 'zustand';
import type { IdeAnswer, IdeQuery } from '../../core/ide/queries.ts';
import type { IdeAsk } from '../../workers/ideClient.ts';
import type { AppState } from '../createAppStore.ts';

export interface IdeSlice {
  /**
   * Answers the editor's go to definition, find references and rename over the whole project as
   * it is now: in a worker in the page (which keeps its last parse), so the page's thread never
   * parses the whole project for them.
   */
  askIde: (query: IdeQuery) => Promise<IdeAnswer>;
}

/** Builds the slice over `ask`, the IDE worker's client (in-thread in tests). */
export const createIdeSlice =
  (ask: IdeAsk): StateCreator<AppState, [], [], IdeSlice> =>
  (_set, get) => ({
    askIde: (query) => ask(get().project, query),
  });
