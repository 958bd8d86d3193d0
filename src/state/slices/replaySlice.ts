import type { StateCreator } from 'zustand';
import type {
  DialogueFilter,
  MarkTarget,
  RunRepository,
  SimEvent,
  StoredRun,
} from '../../core/index.ts';
import {
  LOG_VERSION,
  readLog,
  replayOf,
  standaloneFileName,
  standaloneRunHtml,
  stepOfTurn,
} from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** A run's log held for the Replay pane (when it is not the run Simulate or Play is showing). */
export interface LoadedRun {
  readonly id: string;
  readonly title: string;
  readonly events: readonly SimEvent[];
  /** The format it was saved in; an older log is written back whole before anything is appended. */
  readonly savedVersion: number;
}

/** Where a replay opens: a run, and in it a dialogue at a step (or at the step of a raw turn). */
export interface ReplayAddress {
  readonly run: string;
  readonly dialogue?: string;
  readonly step?: number;
  readonly turn?: number;
}

/** A second dialogue shown beside the first, turn by turn. */
export interface ReplayComparison {
  readonly run: LoadedRun;
  readonly dialogue: string;
}

export interface ReplaySlice {
  /** The run the Replay pane reads; its log is Simulate's or Play's when it is theirs. */
  replayRunId: string | null;
  replayLog: LoadedRun | null;
  replayDialogue: string | null;
  replayStep: number;
  replayFilter: DialogueFilter;
  replayCompare: ReplayComparison | null;
  /** Why something asked of the Replay pane could not be done. */
  replayMessage: string | null;
  /** Whether the policies of the step light up on the Graph pane. */
  replayLightsGraph: boolean;

  /** Opens a run (and a dialogue in it, at a step or turn) in the Replay pane. */
  openReplay: (address: ReplayAddress) => Promise<void>;
  /** Picks a dialogue of the run in the Replay pane, at its first step or at a step or turn. */
  pickReplayDialogue: (dialogue: string | null, at?: { step?: number; turn?: number }) => void;
  setReplayStep: (step: number) => void;
  setReplayFilter: (filter: DialogueFilter) => void;
  /**
   * Shows another dialogue (of this run or another) beside the one in the pane; null closes it.
   * Without a dialogue (another run), the one of the same scenario is found, the same trial first.
   */
  compareReplay: (
    other: { run: string; dialogue?: string; scenario?: string; trial?: number } | null,
  ) => Promise<void>;
  /** A person says a finding or the judge's opinion is right or wrong (null: takes it back). */
  markReplay: (target: MarkTarget, correct: boolean | null) => Promise<void>;
  /** A person's note on a turn of the dialogue in the pane ('' removes it). */
  noteReplay: (turn: number, text: string) => Promise<void>;
  /** Reads a run's log from a file, keeps it with this project's runs and opens it. */
  importRunFile: (name: string, text: string) => Promise<void>;
  /** The same for a gzip-compressed log (`*.json.gz`, as runs are exported). */
  importRunBytes: (name: string, bytes: Uint8Array) => Promise<void>;
  /**
   * The run in the pane as one HTML page that shows it anywhere, offline and read-only: the
   * standalone viewer with the run's log written in. Undefined when it cannot be made (why is in
   * `replayMessage`).
   */
  standaloneReplayPage: () => Promise<
    { readonly fileName: string; readonly html: string } | undefined
  >;
  setReplayLightsGraph: (on: boolean) => void;
  dismissReplayMessage: () => void;
}

/**
 * The log of a run as the page holds it now: Simulate's run on screen and Play's game are read
 * where they live (and grow), any other from what the Replay pane loaded.
 */
export function runEvents(state: AppState, id: string | null): readonly SimEvent[] | undefined {
  if (id === null) return undefined;
  if (state.currentRun?.id === id) return state.currentRun.events;
  if (state.play?.id === id) return state.play.events;
  if (state.replayLog?.id === id) return state.replayLog.events;
  if (state.replayCompare?.run.id === id) return state.replayCompare.run.events;
  return undefined;
}

/**
 * Builds the Replay pane's slice over the run store; it reads logs and appends people's marks.
 * `viewerTemplate` gives the standalone viewer's page that a run is written into.
 */
export function createReplaySlice(
  runs: RunRepository | undefined,
  newId: () => string,
  now: () => string,
  viewerTemplate?: () => Promise<string>,
): StateCreator<AppState, [], [], ReplaySlice> {
  return (set, get) => {
    /** A run's log: from the page when it holds it, else read (and migrated) from the store. */
    const load = async (id: string): Promise<LoadedRun | string> => {
      const state = get();
      const title = titleOf(state.runList, id);
      const held = runEvents(state, id);
      if (held) {
        const version =
          state.currentRun?.id === id
            ? state.currentRun.savedVersion
            : state.replayLog?.id === id
              ? state.replayLog.savedVersion
              : LOG_VERSION;
        return { id, title, events: held, savedVersion: version };
      }
      if (!runs) return 'Saved runs cannot be read here.';
      let raw: unknown[];
      try {
        raw = await runs.events(id);
      } catch (error) {
        return `The run could not be read: ${messageOf(error)}`;
      }
      if (raw.length === 0) return `There is no saved run “${id}” on this device.`;
      const read = readLog(raw);
      if (!read.ok) return `The run “${title}” cannot be opened. ${read.error}`;
      return { id, title, events: read.events, savedVersion: read.savedVersion };
    };

    /** The step of the dialogue to open at: the one asked, the one of a turn, or the first. */
    const stepFor = (
      events: readonly SimEvent[],
      dialogue: string,
      at: { step?: number; turn?: number } | undefined,
    ) => {
      if (at?.step !== undefined) return Math.max(0, at.step);
      if (at?.turn === undefined) return 0;
      // Where something broke at that turn (a refused call comes after its message), else the turn.
      const replay = replayOf(events, dialogue);
      const broke = replay.steps.find((s) => s.turn === at.turn && s.breached.length > 0);
      return broke?.index ?? stepOfTurn(replay, at.turn) ?? 0;
    };

    /** Appends people's events to a finished run's log, on screen and on this device. */
    const append = async (id: string, added: readonly SimEvent[]) => {
      const state = get();
      if (state.currentRun?.id === id && state.currentRun.live) {
        set({ replayMessage: 'Marks and notes can be added once the run has finished.' });
        return;
      }
      if (state.play?.id === id && state.play.live) {
        set({ replayMessage: 'Marks and notes can be added once the game is over.' });
        return;
      }
      const loaded = await load(id);
      if (typeof loaded === 'string') {
        set({ replayMessage: loaded });
        return;
      }
      const from = loaded.events.length;
      const events = [...loaded.events, ...added];
      const now = get();
      set({
        ...(now.currentRun?.id === id && { currentRun: { ...now.currentRun, events } }),
        ...(now.play?.id === id && { play: { ...now.play, events } }),
        ...(now.replayLog?.id === id && { replayLog: { ...now.replayLog, events } }),
        ...(now.replayCompare?.run.id === id && {
          replayCompare: { ...now.replayCompare, run: { ...now.replayCompare.run, events } },
        }),
        replayMessage: null,
      });
      if (!runs) return;
      try {
        // A log read from an older format is written back whole, in the current one.
        if (loaded.savedVersion < LOG_VERSION) await runs.append(id, 0, loaded.events);
        await runs.append(id, from, added);
        const after = get();
        if (after.currentRun?.id === id)
          set({ currentRun: { ...after.currentRun, savedVersion: LOG_VERSION } });
        if (after.replayLog?.id === id)
          set({ replayLog: { ...after.replayLog, savedVersion: LOG_VERSION } });
      } catch (error) {
        set({
          replayMessage: `This could not be saved on this device (${messageOf(error)}); it shows here until you reload.`,
        });
      }
    };

    /** When a person's addition happens on the run's clock: after everything in it. */
    const lastMoment = (id: string) =>
      (runEvents(get(), id) ?? []).reduce((latest, e) => Math.max(latest, e.at), 0);

    /** Keeps a run read from a file with this project's runs, and opens it. */
    const importRaw = async (name: string, raw: unknown) => {
      const read = readLog(raw);
      if (!read.ok) {
        set({ replayMessage: `“${name}” cannot be opened. ${read.error}` });
        return;
      }
      if (read.events.length === 0) {
        set({ replayMessage: `“${name}” holds no events.` });
        return;
      }
      set({ replayMessage: null });
      const id = `run-${newId()}`;
      const title = `Imported: ${name.replace(/(\.json)?(\.gz)?$/i, '')}`;
      const loaded: LoadedRun = { id, title, events: read.events, savedVersion: LOG_VERSION };
      // Shown before the run list names it: the panes that show the newest run (the graph's
      // results) find its log held here instead of reading it back from the store.
      set({
        replayRunId: id,
        replayLog: loaded,
        replayDialogue: null,
        replayStep: 0,
        replayCompare: null,
      });
      if (runs) {
        try {
          await runs.create({ id, projectId: get().projectId, createdAt: now(), title });
          await runs.append(id, 0, read.events);
        } catch (error) {
          set({
            replayMessage: `The run could not be kept on this device (${messageOf(error)}); it shows here until you reload.`,
          });
        }
        await get().refreshRuns();
      }
    };

    return {
      replayRunId: null,
      replayLog: null,
      replayDialogue: null,
      replayStep: 0,
      replayFilter: {},
      replayCompare: null,
      replayMessage: null,
      replayLightsGraph: true,

      openReplay: async (address) => {
        const loaded = await load(address.run);
        if (typeof loaded === 'string') {
          set({ replayMessage: loaded });
          return;
        }
        const dialogue = address.dialogue ?? null;
        const known =
          dialogue !== null &&
          loaded.events.some((e) => e.type === 'dialogue-started' && e.dialogue === dialogue);
        set({
          replayRunId: address.run,
          // Kept even when Simulate or Play holds the log, so it stays when they move on.
          replayLog: loaded,
          replayDialogue: known ? dialogue : null,
          replayStep: known ? stepFor(loaded.events, dialogue, address) : 0,
          replayCompare: null,
          replayMessage:
            dialogue !== null && !known
              ? `The run “${loaded.title}” has no dialogue “${dialogue}”.`
              : null,
        });
      },
      pickReplayDialogue: (dialogue, at) => {
        const events = runEvents(get(), get().replayRunId) ?? [];
        set({
          replayDialogue: dialogue,
          replayStep: dialogue === null ? 0 : stepFor(events, dialogue, at),
          replayCompare: null,
        });
      },
      setReplayStep: (replayStep) => {
        if (replayStep !== get().replayStep) set({ replayStep: Math.max(0, replayStep) });
      },
      setReplayFilter: (replayFilter) => {
        set({ replayFilter });
      },
      compareReplay: async (other) => {
        if (other === null) {
          set({ replayCompare: null });
          return;
        }
        const loaded = await load(other.run);
        if (typeof loaded === 'string') {
          set({ replayMessage: loaded });
          return;
        }
        const starts = loaded.events.flatMap((e) => (e.type === 'dialogue-started' ? [e] : []));
        const dialogue =
          other.dialogue !== undefined && other.dialogue !== ''
            ? starts.find((e) => e.dialogue === other.dialogue)?.dialogue
            : (
                starts.find((e) => e.scenario === other.scenario && e.trial === other.trial) ??
                starts.find((e) => e.scenario === other.scenario)
              )?.dialogue;
        if (dialogue === undefined) {
          set({
            replayMessage: `The run “${loaded.title}” has no dialogue of scenario “${other.scenario ?? ''}” to compare with.`,
          });
          return;
        }
        set({ replayCompare: { run: loaded, dialogue }, replayMessage: null });
      },
      markReplay: async (target, correct) => {
        const { replayRunId: id, replayDialogue: dialogue } = get();
        if (id === null || dialogue === null) return;
        await append(id, [{ type: 'mark', at: lastMoment(id), dialogue, target, correct }]);
      },
      noteReplay: async (turn, text) => {
        const { replayRunId: id, replayDialogue: dialogue } = get();
        if (id === null || dialogue === null) return;
        await append(id, [{ type: 'note', at: lastMoment(id), dialogue, turn, text: text.trim() }]);
      },
      importRunFile: async (name, text) => {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          set({ replayMessage: `“${name}” is not a run’s log: it is not JSON.` });
          return;
        }
        await importRaw(name, raw);
      },
      importRunBytes: async (name, bytes) => {
        const { gunzipLog } = await import('../../core/share/archive.ts');
        const opened = gunzipLog(bytes);
        if (!opened.ok) {
          set({ replayMessage: `“${name}” cannot be opened: ${opened.error}` });
          return;
        }
        await importRaw(name, opened.raw);
      },
      standaloneReplayPage: async () => {
        const state = get();
        const id = state.replayRunId;
        if (id === null) return undefined;
        if (
          (state.currentRun?.id === id && state.currentRun.live) ||
          (state.play?.id === id && state.play.live)
        ) {
          set({ replayMessage: 'A run can be saved as a page once it has finished.' });
          return undefined;
        }
        if (!viewerTemplate) {
          set({ replayMessage: 'Standalone pages cannot be made here.' });
          return undefined;
        }
        const loaded = await load(id);
        if (typeof loaded === 'string') {
          set({ replayMessage: loaded });
          return undefined;
        }
        try {
          const html = standaloneRunHtml(await viewerTemplate(), loaded.events, loaded.title);
          return { fileName: standaloneFileName(loaded.title), html };
        } catch (error) {
          set({ replayMessage: `The standalone page could not be made: ${messageOf(error)}` });
          return undefined;
        }
      },
      setReplayLightsGraph: (replayLightsGraph) => {
        set({ replayLightsGraph });
      },
      dismissReplayMessage: () => {
        set({ replayMessage: null });
      },
    };
  };
}

function titleOf(list: readonly StoredRun[], id: string): string {
  return list.find((r) => r.id === id)?.title ?? id;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
