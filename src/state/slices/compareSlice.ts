import type { StateCreator } from 'zustand';
import type { RunRepository, SimEvent } from '../../core/index.ts';
import { readLog } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import { runEvents } from './replaySlice.ts';

/** One of the two runs set side by side: its id, title and log. */
export interface CompareSide {
  readonly id: string;
  readonly title: string;
  readonly events: readonly SimEvent[];
}

export interface CompareSlice {
  /** The baseline run of the Compare tab. */
  compareBefore: CompareSide | null;
  /** The run under question. */
  compareAfter: CompareSide | null;
  /** Why a run could not be loaded or re-checked, or what a re-check left as it was. */
  compareMessage: string | null;
  /** A re-check is being made and saved. */
  rechecking: boolean;

  /** Loads saved runs (by id) as the before and/or after side; null empties a side. */
  pickCompareRuns: (pick: { before?: string | null; after?: string | null }) => Promise<void>;
  /**
   * Judges a saved run again against today's project (no model is called), saves the result as a
   * new run of this project and sets it beside its source: source before, re-check after.
   * Resolves with the new run's id, or undefined when it could not be made (why is in
   * `compareMessage`).
   */
  recheckAgainstProject: (id: string) => Promise<string | undefined>;
}

/** Builds the Compare tab's slice over the run store. */
export function createCompareSlice(
  runs: RunRepository | undefined,
  newId: () => string,
  now: () => string,
): StateCreator<AppState, [], [], CompareSlice> {
  return (set, get) => {
    // Only the latest pick of each side lands, however the reads finish.
    const asked = { before: 0, after: 0 };

    const load = async (id: string): Promise<CompareSide | string> => {
      const state = get();
      const title = state.runList.find((r) => r.id === id)?.title ?? id;
      const held = runEvents(state, id);
      if (held) return { id, title, events: held };
      if (!runs) return 'Saved runs cannot be read here.';
      let raw: unknown[];
      try {
        raw = await runs.events(id);
      } catch (error) {
        return `The run “${title}” could not be read: ${messageOf(error)}`;
      }
      if (raw.length === 0) return `There is no saved run “${title}” on this device.`;
      const read = readLog(raw);
      if (!read.ok) return `The run “${title}” cannot be compared. ${read.error}`;
      return { id, title, events: read.events };
    };

    const pickSide = async (side: 'before' | 'after', id: string | null) => {
      const ticket = ++asked[side];
      const key = side === 'before' ? 'compareBefore' : 'compareAfter';
      if (id === null) {
        set({ [key]: null });
        return;
      }
      const loaded = await load(id);
      if (ticket !== asked[side]) return;
      if (typeof loaded === 'string') set({ [key]: null, compareMessage: loaded });
      else set({ [key]: loaded });
    };

    return {
      compareBefore: null,
      compareAfter: null,
      compareMessage: null,
      rechecking: false,

      pickCompareRuns: async (pick) => {
        set({ compareMessage: null });
        await Promise.all([
          pick.before !== undefined && pickSide('before', pick.before),
          pick.after !== undefined && pickSide('after', pick.after),
        ]);
      },
      recheckAgainstProject: async (id) => {
        if (get().rechecking) return undefined;
        set({ rechecking: true, compareMessage: null });
        try {
          const source = await load(id);
          if (typeof source === 'string') {
            set({ compareMessage: source });
            return undefined;
          }
          // Today's project as the analysis of its current text read it: the page never parses
          // the whole project itself, and never re-checks against an older text.
          const current = await get().currentAnalysis();
          if (!current.ok) {
            set({ compareMessage: current.problem });
            return undefined;
          }
          const { projectId } = get();
          const { recheckRun } = await import('../../core/sim/recheck.ts');
          const { model, diagnostics } = current.analysis;
          const errors = diagnostics.filter((d) => d.severity === 'error').length;
          // What does not parse judges nothing: say so rather than let its checks vanish.
          const broken =
            errors === 0
              ? []
              : [
                  `Today’s project has ${errors} error${errors === 1 ? '' : 's'} (see Problems): what does not parse was left out of the re-check, so its checks and expectations judged nothing.`,
                ];
          const recheck = recheckRun(model, current.files, id, source.events);
          const newRun = `run-${newId()}`;
          const title = `Re-check of ${source.title}`;
          if (runs) {
            try {
              await runs.create({ id: newRun, projectId, createdAt: now(), title });
              await runs.append(newRun, 0, recheck.events);
            } catch (error) {
              set({
                compareMessage: `The re-check could not be saved on this device (${messageOf(error)}).`,
              });
              return undefined;
            }
            await get().refreshRuns();
          }
          ++asked.before;
          ++asked.after;
          const kept = recheck.kept.map((k) => `${k.dialogue} was kept as judged: ${k.reason}`);
          set({
            compareBefore: source,
            compareAfter: { id: newRun, title, events: recheck.events },
            compareMessage: [...broken, ...recheck.notes, ...kept].join(' ') || null,
          });
          return newRun;
        } finally {
          set({ rechecking: false });
        }
      },
    };
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
