import type { StateCreator } from 'zustand';
import type {
  LevelBand,
  Project,
  ProjectModel,
  ReadLog,
  RunRepository,
  RunRequest,
  Scheduler,
  SimEvent,
  StoredRun,
} from '../../core/index.ts';
import {
  DEFAULT_LEVELS,
  DEFAULT_MAX_TOOL_ROUNDS,
  LOG_VERSION,
  PERSON,
  createRecorder,
  readLog,
  readerTurns,
  runClock,
  transcriptOf,
} from '../../core/index.ts';
import type { Simulator } from '../../workers/simulationClient.ts';
import { simulateInThread } from '../../workers/simulationClient.ts';
import type { AppState } from '../createAppStore.ts';
import type { CurrentAnalysis } from '../currentAnalysis.ts';
import type { ModelServices } from './modelsSlice.ts';
import { choosePlayers } from './players.ts';

/** What the next run will do; the Simulate pane's form. */
export interface RunSettings {
  /** Trials per scenario (the k of pass^k). */
  readonly trials: number;
  /** Dialogues at once. */
  readonly concurrency: number;
  /** Messages the simulated user may send per dialogue. */
  readonly maxTurns: number;
  /** Tool calls the agent (or the simulated user) may make in a row before it must speak. */
  readonly maxToolRounds: number;
  /** The judge's opinion decides policies no deterministic check covers (needs a judge). */
  readonly judgeDecides: boolean;
  /** How many times the judge is asked about each policy (1 to 5); its spread is reported. */
  readonly judgeRepeats: number;
  /** Stop cleanly once this many dollars are spent; null for no limit. */
  readonly budgetDollars: number | null;
  /** Stop cleanly once this many tokens are spent (what limits a model without a price); null for no limit. */
  readonly budgetTokens: number | null;
  /** Seeds the sampling of policy combinations and the generator; recorded with the run. */
  readonly seed: number;
  /** Scenarios the generator model writes for policy combinations sampled from the graph. */
  readonly generated: number;
  /** The challenge band those combinations are drawn from. */
  readonly levels: LevelBand;
}

/** The run on screen: its log (growing while it runs) and how it stands. */
export interface CurrentRun {
  readonly id: string;
  readonly title: string;
  readonly events: readonly SimEvent[];
  /** Running in this page now. */
  readonly live: boolean;
  readonly error: string | null;
  /** The log format it was saved in; older logs are migrated when read (and when resumed). */
  readonly savedVersion: number;
}

export interface SimulationSlice {
  runSettings: RunSettings;
  runList: readonly StoredRun[];
  currentRun: CurrentRun | null;
  /** Why a run cannot start, or what went wrong around one. */
  simulationMessage: string | null;
  /**
   * A run or a game waits for the analysis of the project's current text before it is planned
   * (the text changed since the last one): the Run and Play buttons say "Checking the project…".
   */
  checkingProject: boolean;

  setRunSettings: (patch: Partial<RunSettings>) => void;
  refreshRuns: () => Promise<void>;
  /** Runs the project's scenarios with the models chosen per role, saving the log as it grows. */
  startRun: () => Promise<void>;
  /** Goes on with the interrupted run on screen: judged dialogues stay, the rest run. */
  resumeRun: () => Promise<void>;
  /**
   * Re-runs the rest of a saved dialogue from one of its agent turns (raw message index) with the
   * project and the models per role as they are now: a new one-dialogue run naming its source,
   * saved, listed and put on screen like `startRun`'s. Resolves with its id once it has finished,
   * or undefined when it cannot start (the reason is in `simulationMessage`).
   */
  continueDialogue: (from: {
    readonly run: string;
    readonly dialogue: string;
    readonly turn: number;
  }) => Promise<string | undefined>;
  cancelRun: () => void;
  openRun: (id: string) => Promise<void>;
  /**
   * A person's review of a dialogue flagged as simulator suspect in the run on screen: it counts
   * as judged, or is discarded as the simulation's error. Appended to the run's log and saved.
   */
  reviewDialogue: (dialogue: string, decision: 'counts' | 'discarded') => Promise<void>;
  deleteRun: (id: string) => Promise<void>;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = {
  trials: 1,
  concurrency: 2,
  maxTurns: 10,
  maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
  judgeDecides: false,
  judgeRepeats: 1,
  budgetDollars: 1,
  budgetTokens: null,
  seed: 1,
  generated: 0,
  levels: DEFAULT_LEVELS,
};

/** Where in the page a problem that stops a run is fixed, said after it. */
const WHERE_TO_FIX: Readonly<Record<'scenarios' | 'models' | 'prices' | 'log', string>> = {
  scenarios: '',
  models: '(Models in the header.)',
  prices: '(Prices are under Models in the header; the budget is in the form above.)',
  log: '',
};

/** How often a running log is shown and saved: often enough to watch, seldom enough to be cheap. */
const FLUSH_MS = 150;

/**
 * Builds the simulation slice over the run store and the model engines; `simulate` runs the
 * simulation (in a worker in the page), on this thread when absent. Runs are planned by core's
 * `planRun` and recorded by its recorder, as Play and the CLI do; this slice only wires them to
 * the form, the run store and the screen.
 */
export function createSimulationSlice(
  runs: RunRepository | undefined,
  models: ModelServices | undefined,
  newId: () => string,
  now: () => string,
  simulate: Simulator | undefined,
  scheduler: Scheduler,
): StateCreator<AppState, [], [], SimulationSlice> {
  let controller: AbortController | undefined;
  return (set, get) => {
    /**
     * Plans a run (its resumption, or a dialogue's continuation) from the form and the models per
     * role, or says why not.
     */
    const plan = async (derived: Pick<RunRequest, 'resuming' | 'continueFrom'> = {}) => {
      const state = get();
      if (state.currentRun?.live) return undefined;
      const players = choosePlayers(state);
      const { agent, user } = players;
      if (!models || !agent || !user) {
        set({
          simulationMessage:
            'Choose models first: load a model in this browser, or give the agent and the simulated user an endpoint (Models in the header).',
        });
        return undefined;
      }
      const checked = await checkedProject(set, get);
      if (!checked) return undefined;
      const { planRun } = await import('../../core/sim/plan.ts');
      const settings = state.runSettings;
      const planned = planRun(
        checked.project,
        {
          seed: settings.seed,
          trials: settings.trials,
          concurrency: settings.concurrency,
          maxTurns: settings.maxTurns,
          maxToolRounds: settings.maxToolRounds,
          ...(settings.judgeDecides && { judgeDecides: true }),
          ...(settings.judgeRepeats > 1 && { judgeRepeats: settings.judgeRepeats }),
          ...((settings.budgetDollars !== null || settings.budgetTokens !== null) && {
            budget: {
              ...(settings.budgetDollars !== null && { dollars: settings.budgetDollars }),
              ...(settings.budgetTokens !== null && { tokens: settings.budgetTokens }),
            },
          }),
          scenarios: 'all',
          ...(settings.generated > 0 && {
            generate: { count: settings.generated, levels: settings.levels },
          }),
          agent,
          user,
          ...(players.judge && { judge: players.judge }),
          ...(players.generator && { generator: players.generator }),
          externalAgent: players.externalAgent,
          prices: state.modelSettings.prices,
          freeModels: players.freeModels,
          now: now(),
          ...derived,
        },
        checked.model,
      );
      if (!planned.ok) {
        const where = WHERE_TO_FIX[planned.fix];
        set({ simulationMessage: where ? `${planned.problem} ${where}` : planned.problem });
        return undefined;
      }
      return { ...planned, models };
    };

    /** Runs (or goes on with) a planned run, showing and saving its log as it grows. */
    const execute = async (
      planned: NonNullable<Awaited<ReturnType<typeof plan>>>,
      run: {
        readonly id: string;
        readonly title: string;
        readonly previous: readonly SimEvent[];
        /** The previous log was migrated from an older format: write it back first. */
        readonly rewrite: boolean;
      },
      created?: Promise<void>,
    ) => {
      const { id, title, previous } = run;
      controller = new AbortController();
      set({
        currentRun: {
          id,
          title,
          events: previous,
          live: true,
          error: null,
          savedVersion: LOG_VERSION,
        },
        simulationMessage: null,
      });
      const recorder = createRecorder({
        previous,
        rewritePrevious: run.rewrite,
        ...(runs && { sink: { append: (from, events) => runs.append(id, from, events) } }),
        ...(created && { ready: created }),
        batchMs: FLUSH_MS,
        scheduler,
        onShow: (events) => {
          const current = get().currentRun;
          if (current?.id === id) set({ currentRun: { ...current, events } });
        },
        onSaveError: (error) => {
          set({
            simulationMessage: `The run could not be saved on this device (${messageOf(error)}); it goes on here.`,
          });
        },
      });
      try {
        await (simulate ?? simulateInThread)(planned.model, planned.plan, {
          runtime: planned.models.runtime,
          clock: runClock(planned.models.clock, previous),
          signal: controller.signal,
          ...(previous.length > 0 && { previous }),
          emit: recorder.emit,
        });
      } catch (error) {
        const current = get().currentRun;
        if (current?.id === id) set({ currentRun: { ...current, error: messageOf(error) } });
      } finally {
        // Finished only once every event is saved: a reload then finds the whole log.
        await recorder.close();
        const current = get().currentRun;
        if (current?.id === id) set({ currentRun: { ...current, live: false } });
        controller = undefined;
        await get().refreshRuns();
      }
    };

    /** A saved run's log (the run on screen's, when it is that one), or undefined, said why. */
    const sourceEvents = async (id: string, current: CurrentRun | null) => {
      if (current?.id === id) return current.events;
      const title = get().runList.find((r) => r.id === id)?.title ?? id;
      let read: ReadLog;
      try {
        if (!runs) throw new Error('runs are not kept on this page');
        read = readLog(await runs.events(id));
      } catch (error) {
        set({ simulationMessage: `The run could not be read: ${messageOf(error)}` });
        return undefined;
      }
      if (!read.ok || read.events.length === 0) {
        const why = read.ok ? 'It is not saved on this device.' : read.error;
        set({ simulationMessage: `The run “${title}” cannot be continued. ${why}` });
        return undefined;
      }
      return read.events;
    };

    return {
      runSettings: DEFAULT_RUN_SETTINGS,
      runList: [],
      currentRun: null,
      simulationMessage: null,
      checkingProject: false,

      setRunSettings: (patch) => {
        set({ runSettings: { ...get().runSettings, ...patch } });
      },
      refreshRuns: async () => {
        const projectId = get().projectId;
        if (!runs) return;
        try {
          set({ runList: await runs.list(projectId) });
        } catch (error) {
          set({ simulationMessage: `Saved runs could not be read: ${messageOf(error)}` });
        }
      },
      startRun: async () => {
        const planned = await plan();
        if (!planned) return;
        const { scenarios, samples = [], trials, agent } = planned.plan;
        const id = `run-${newId()}`;
        // Generation may fail for some samples, so the title counts what was asked for.
        const written = `${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}`;
        const asked = samples.length > 0 ? ` + ${samples.length} to generate` : '';
        const title = `${written}${asked} × ${trials} · ${agent.model}`;
        await execute(
          planned,
          { id, title, previous: [], rewrite: false },
          runs?.create({ id, projectId: get().projectId, createdAt: now(), title }),
        );
      },
      resumeRun: async () => {
        const current = get().currentRun;
        if (!current || current.live) return;
        const started = current.events.find((e) => e.type === 'run-started');
        if (!started || current.events.some((e) => e.type === 'run-ended')) return;
        if (Object.values(started.models).includes(PERSON)) {
          set({ simulationMessage: 'A game of Play cannot be resumed without its player.' });
          return;
        }
        const planned = await plan({ resuming: current.events });
        if (!planned) return;
        await execute(planned, {
          id: current.id,
          title: current.title,
          previous: current.events,
          rewrite: current.savedVersion < LOG_VERSION,
        });
      },
      continueDialogue: async (from) => {
        const current = get().currentRun;
        if (current?.live) {
          set({
            simulationMessage:
              'A run is going on: wait for it to finish (or stop it) before continuing a dialogue.',
          });
          return undefined;
        }
        const source = await sourceEvents(from.run, current);
        if (!source) return undefined;
        const planned = await plan({ continueFrom: { ...from, events: source } });
        if (!planned) return undefined;
        const id = `run-${newId()}`;
        const name = readerTurns(transcriptOf(source, from.dialogue).messages)(from.turn);
        const title = `Continued: ${from.dialogue} from ${name} · ${planned.plan.agent.model}`;
        await execute(
          planned,
          { id, title, previous: [], rewrite: false },
          runs?.create({ id, projectId: get().projectId, createdAt: now(), title }),
        );
        return id;
      },
      cancelRun: () => {
        controller?.abort();
      },
      openRun: async (id) => {
        if (!runs || get().currentRun?.live) return;
        const title = get().runList.find((r) => r.id === id)?.title ?? id;
        // A log Replay already read is not read and folded again (a big run's costs a second).
        const { replayLog, replayCompare } = get();
        const held = [replayLog, replayCompare?.run].find((run) => run?.id === id);
        if (held) {
          set({
            currentRun: {
              id,
              title,
              events: held.events,
              live: false,
              error: null,
              savedVersion: held.savedVersion,
            },
            simulationMessage: null,
          });
          return;
        }
        let read: ReadLog;
        try {
          read = readLog(await runs.events(id));
        } catch (error) {
          set({ simulationMessage: `The run could not be read: ${messageOf(error)}` });
          return;
        }
        if (!read.ok) {
          set({ simulationMessage: `The run “${title}” cannot be opened. ${read.error}` });
          return;
        }
        set({
          currentRun: {
            id,
            title,
            events: read.events,
            live: false,
            error: null,
            savedVersion: read.savedVersion,
          },
          simulationMessage: null,
        });
      },
      reviewDialogue: async (dialogue, decision) => {
        const current = get().currentRun;
        if (!current || current.live) return;
        const at = current.events.reduce((latest, e) => Math.max(latest, e.at), 0);
        const review: SimEvent = { type: 'review', at, dialogue, decision };
        const from = current.events.length;
        set({ currentRun: { ...current, events: [...current.events, review] } });
        try {
          if (runs) {
            // A log read from an older format is written back whole, in the current one.
            if (current.savedVersion < LOG_VERSION)
              await runs.append(current.id, 0, current.events);
            await runs.append(current.id, from, [review]);
            const saved = get().currentRun;
            if (saved?.id === current.id)
              set({ currentRun: { ...saved, savedVersion: LOG_VERSION } });
          }
        } catch (error) {
          set({
            simulationMessage: `Your review could not be saved on this device (${messageOf(error)}); it shows here until you reload.`,
          });
        }
      },
      deleteRun: async (id) => {
        if (!runs || (get().currentRun?.id === id && get().currentRun?.live)) return;
        await runs.remove(id);
        if (get().currentRun?.id === id) set({ currentRun: null });
        await get().refreshRuns();
      },
    };
  };
}

/**
 * The project as it is now and its parsed model, from the analysis of this very text (waited for,
 * with `checkingProject` set, when the last analysis is of an older text), or undefined with the
 * reason in `simulationMessage`. A run is never planned on an older text's model, and the page
 * never parses the whole project itself.
 */
export async function checkedProject(
  set: (partial: Partial<AppState>) => void,
  get: () => AppState,
): Promise<{ readonly project: Project; readonly model: ProjectModel } | undefined> {
  if (get().checkingProject) return undefined;
  set({ checkingProject: true, simulationMessage: null });
  let current: CurrentAnalysis;
  try {
    current = await get().currentAnalysis();
  } finally {
    set({ checkingProject: false });
  }
  if (!current.ok) {
    set({ simulationMessage: current.problem });
    return undefined;
  }
  return { project: { ...get().project, files: current.files }, model: current.analysis.model };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
