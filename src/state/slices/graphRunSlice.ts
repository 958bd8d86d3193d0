import type { StateCreator } from 'zustand';
import type { RunRepository, SimEvent } from '../../core/index.ts';
import { readLog } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** Which run the graph shows results of: the project's latest, none, or one by id. */
export type GraphRunChoice = 'latest' | 'none' | { readonly run: string };

/** A saved run's log read for the graph (when no other pane holds it already). */
export interface GraphRunLog {
  readonly id: string;
  readonly events: readonly SimEvent[];
}

export interface GraphRunSlice {
  /** The run whose results colour the graph and fill the details; the latest until one is picked. */
  graphRunChoice: GraphRunChoice;
  graphRunLog: GraphRunLog | null;
  /** Why the chosen run's log could not be read, if it could not. */
  graphRunMessage: string | null;

  pickGraphRun: (choice: GraphRunChoice) => void;
  /** Reads a saved run's log for the graph, unless it is read already or another pane holds it. */
  loadGraphRun: (id: string) => Promise<void>;
}

/** The id of the run the graph shows, or null: the pick, or the project's newest saved run. */
export function graphRunId(state: AppState): string | null {
  const choice = state.graphRunChoice;
  if (choice === 'none') return null;
  // A run picked in another project, or since deleted, gives way to this project's latest.
  if (choice !== 'latest' && state.runList.some((r) => r.id === choice.run)) return choice.run;
  return state.runList[0]?.id ?? null;
}

/** A run's log wherever the page holds it: Simulate's, Play's, Replay's or the graph's own. */
export function heldLog(state: AppState, id: string): readonly SimEvent[] | undefined {
  if (state.currentRun?.id === id) return state.currentRun.events;
  if (state.play?.id === id) return state.play.events;
  if (state.replayLog?.id === id) return state.replayLog.events;
  return state.graphRunLog?.id === id ? state.graphRunLog.events : undefined;
}

/** Builds the slice that picks the run the graph shows, reading logs from the run store. */
export function createGraphRunSlice(
  runs: RunRepository | undefined,
): StateCreator<AppState, [], [], GraphRunSlice> {
  return (set, get) => ({
    graphRunChoice: 'latest',
    graphRunLog: null,
    graphRunMessage: null,

    pickGraphRun: (graphRunChoice) => {
      set({ graphRunChoice, graphRunMessage: null });
    },
    loadGraphRun: async (id) => {
      if (heldLog(get(), id) || !runs) return;
      let raw: unknown[];
      try {
        raw = await runs.events(id);
      } catch (error) {
        set({ graphRunMessage: `The run could not be read: ${String(error)}` });
        return;
      }
      const read = readLog(raw);
      // Only the newest request lands: the pick may have moved on while this one was read.
      if (graphRunId(get()) !== id) return;
      if (!read.ok) {
        set({ graphRunMessage: `The run cannot be shown: ${read.error}` });
        return;
      }
      set({ graphRunLog: { id, events: read.events }, graphRunMessage: null });
    },
  });
}
