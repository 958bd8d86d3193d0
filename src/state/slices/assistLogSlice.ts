import type { StateCreator } from 'zustand';
import type { AssistAction, AssistUsage, RunRepository, SimEvent } from '../../core/index.ts';
import { assistLogId, assistUsageOf, readAssistLog } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

export interface AssistLogSlice {
  /** The open project's Assist log: every model call an Assist action made, failed ones too. */
  assistLog: readonly AssistUsage[];
  /** Why the log could not be read or written, in words; null when all is well. */
  assistLogProblem: string | null;
  /** Reads the open project's log from storage (the store calls it when a project opens). */
  loadAssistLog: () => Promise<void>;
  /**
   * The `emit` an Assist action's calls report to: each `usage` event becomes an entry of the
   * open project's log, kept at once in memory and written to storage in order.
   */
  assistEmitter: (action: AssistAction) => (event: SimEvent) => void;
  /** Resolves once every entry so far is written to storage (or has failed to be). */
  assistLogWritten: () => Promise<void>;
}

/**
 * The Assist log, kept in the run store under the project's `assistLogId` (an event log with no
 * run of its own, so it never shows among the runs). Without a store it lives in memory only.
 */
export function createAssistLogSlice(
  runs: RunRepository | undefined,
  now: () => string,
): StateCreator<AppState, [], [], AssistLogSlice> {
  // Writes go one after another, each after the log it extends was read: `stored` is how many
  // entries storage holds for `project`, so the next one is appended right after them.
  let chain: Promise<void> = Promise.resolve();
  let project = '';
  let stored = 0;
  const problem = (what: string, error: unknown) =>
    `The Assist log could not be ${what}: ${error instanceof Error ? error.message : String(error)}`;
  return (set, get) => ({
    assistLog: [],
    assistLogProblem: null,

    loadAssistLog: () => {
      const id = get().projectId;
      project = id;
      stored = 0;
      set({ assistLog: [], assistLogProblem: null });
      if (!runs || id === '') return chain;
      chain = chain.then(async () => {
        try {
          const raw = await runs.events(assistLogId(id));
          if (project !== id) return;
          const { entries, unreadable } = readAssistLog(raw);
          stored = raw.length;
          set((state) => ({
            // Calls made while the log was being read come after what storage held.
            assistLog: [...entries, ...state.assistLog],
            assistLogProblem:
              unreadable > 0
                ? `${unreadable} stored Assist log ${unreadable === 1 ? 'entry was' : 'entries were'} unreadable and left out of the totals.`
                : null,
          }));
        } catch (error) {
          if (project === id) set({ assistLogProblem: problem('read', error) });
        }
      });
      return chain;
    },

    assistLogWritten: () => chain,

    assistEmitter: (action) => (event) => {
      const entry = assistUsageOf(action, now(), event);
      if (!entry) return;
      set((state) => ({ assistLog: [...state.assistLog, entry] }));
      const id = get().projectId;
      if (!runs || id === '' || id !== project) return;
      chain = chain.then(async () => {
        try {
          await runs.append(assistLogId(id), stored, [entry]);
          if (project === id) stored++;
        } catch (error) {
          if (project === id) set({ assistLogProblem: problem('saved', error) });
        }
      });
    },
  });
}
