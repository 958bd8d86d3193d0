import type { StateCreator } from 'zustand';
import type { RunRepository, SimEvent, SimScenario, StoredRun } from '../../core/index.ts';
import { PERSON, projectHash } from '../../core/index.ts';
import type { Simulator } from '../../workers/simulationClient.ts';
import { simulateInThread } from '../../workers/simulationClient.ts';
import type { AppState } from '../createAppStore.ts';
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
  /** Stop cleanly once this many dollars are spent; null for no limit. */
  readonly budgetDollars: number | null;
  /** Seeds the sampling of policy combinations and the generator; recorded with the run. */
  readonly seed: number;
  /** Scenarios the generator model writes for policy combinations sampled from the graph. */
  readonly generated: number;
  /** The challenge band those combinations are drawn from. */
  readonly levels: { readonly min: number; readonly max: number };
}

/** The run on screen: its log (growing while it runs) and how it stands. */
export interface CurrentRun {
  readonly id: string;
  readonly title: string;
  readonly events: readonly SimEvent[];
  /** Running in this page now. */
  readonly live: boolean;
  readonly error: string | null;
}

export interface SimulationSlice {
  runSettings: RunSettings;
  runList: readonly StoredRun[];
  currentRun: CurrentRun | null;
  /** Why a run cannot start, or what went wrong around one. */
  simulationMessage: string | null;

  setRunSettings: (patch: Partial<RunSettings>) => void;
  refreshRuns: () => Promise<void>;
  /** Runs the project's scenarios with the models chosen per role, saving the log as it grows. */
  startRun: () => Promise<void>;
  /** Goes on with the interrupted run on screen: judged dialogues stay, the rest run. */
  resumeRun: () => Promise<void>;
  cancelRun: () => void;
  openRun: (id: string) => Promise<void>;
  deleteRun: (id: string) => Promise<void>;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = {
  trials: 1,
  concurrency: 2,
  maxTurns: 10,
  budgetDollars: 1,
  seed: 1,
  generated: 0,
  levels: { min: 4, max: 8 },
};

/** How often a running log is shown and saved: often enough to watch, seldom enough to be cheap. */
const FLUSH_MS = 150;

/**
 * Builds the simulation slice over the run store and the model engines; `simulate` runs the
 * simulation (in a worker in the page), on this thread when absent.
 */
export function createSimulationSlice(
  runs: RunRepository | undefined,
  models: ModelServices | undefined,
  newId: () => string,
  now: () => string,
  simulate: Simulator | undefined,
): StateCreator<AppState, [], [], SimulationSlice> {
  let controller: AbortController | undefined;
  return (set, get) => {
    /** The models per role and the parsed project, or why a run cannot start. */
    const prepare = async () => {
      const state = get();
      if (state.currentRun?.live) return undefined;
      const { agent, user, judge, generator, externalAgent } = choosePlayers(state);
      if (!models || !agent || !user) {
        set({
          simulationMessage:
            'Choose models first: load a model in this browser, or give the agent and the simulated user an endpoint (Models in the header).',
        });
        return undefined;
      }
      const [
        { parseProject },
        { handWrittenScenarios },
        { buildGraph },
        { sampleWithReport },
        { projectPrompts },
      ] = await Promise.all([
        import('../../core/format/parseProject.ts'),
        import('../../core/sim/scenarios.ts'),
        import('../../core/graph/build.ts'),
        import('../../core/graph/sample.ts'),
        import('../../core/sim/prompts.ts'),
      ]);
      const model = parseProject(state.project).model;
      return {
        models,
        agent,
        externalAgent,
        user,
        judge,
        generator,
        model,
        handWrittenScenarios,
        projectPrompts,
        buildGraph,
        sampleWithReport,
      };
    };

    /** Runs (or goes on with) a run, showing and saving its log as it grows. */
    const execute = async (
      setup: NonNullable<Awaited<ReturnType<typeof prepare>>>,
      run: {
        readonly id: string;
        readonly title: string;
        readonly scenarios: readonly SimScenario[];
        readonly samples: readonly {
          readonly policies: readonly string[];
          readonly level: number;
        }[];
        readonly trials: number;
        readonly seed: number;
        readonly previous: readonly SimEvent[];
      },
      created: Promise<void> = Promise.resolve(),
    ) => {
      const { id, title, previous } = run;
      const state = get();
      const settings = state.runSettings;
      controller = new AbortController();
      set({
        currentRun: { id, title, events: previous, live: true, error: null },
        simulationMessage: null,
      });
      // Events are gathered and written in batches; a failed write is said once, not fatal.
      const log: SimEvent[] = [...previous];
      let saved = log.length;
      let saving = created;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = () => {
        timer = undefined;
        const fresh = log.slice(saved);
        const from = saved;
        saved = log.length;
        if (runs && fresh.length > 0) {
          saving = saving
            .then(() => runs.append(id, from, fresh))
            .catch((error: unknown) => {
              set({
                simulationMessage: `The run could not be saved on this device (${messageOf(error)}); it goes on here.`,
              });
            });
        }
        const current = get().currentRun;
        if (current?.id === id) set({ currentRun: { ...current, events: [...log] } });
      };
      const start = setup.models.clock();
      // A resumed run's clock goes on from where its log stopped.
      const offset = previous.reduce((latest, e) => Math.max(latest, e.at), 0);
      try {
        await (simulate ?? simulateInThread)(
          setup.model,
          {
            seed: run.seed,
            projectHash: projectHash(state.project.files),
            // The project's own versions of the prompts, where scenarios.yaml has them.
            prompts: setup.projectPrompts(setup.model),
            scenarios: run.scenarios.map((scenario) => ({
              scenario,
              source: 'hand-written' as const,
            })),
            trials: run.trials,
            concurrency: settings.concurrency,
            limits: { maxTurns: settings.maxTurns, timeLimitMs: 300_000, maxToolRounds: 8 },
            ...(settings.budgetDollars !== null && { budget: { dollars: settings.budgetDollars } }),
            agent: setup.agent,
            ...(setup.externalAgent && { externalAgent: true }),
            user: setup.user,
            ...(setup.judge && { judge: setup.judge }),
            ...(run.samples.length > 0 &&
              setup.generator && { samples: run.samples, generator: setup.generator }),
            now: now(),
          },
          {
            runtime: setup.models.runtime,
            clock: () => offset + Math.round(setup.models.clock() - start),
            prices: state.modelSettings.prices,
            signal: controller.signal,
            ...(previous.length > 0 && { previous }),
            emit: (event) => {
              log.push(event);
              timer ??= setTimeout(flush, FLUSH_MS);
            },
          },
        );
      } catch (error) {
        const current = get().currentRun;
        if (current?.id === id) set({ currentRun: { ...current, error: messageOf(error) } });
      } finally {
        clearTimeout(timer);
        flush();
        await saving;
        const current = get().currentRun;
        if (current?.id === id) set({ currentRun: { ...current, live: false } });
        controller = undefined;
        await get().refreshRuns();
      }
    };

    return {
      runSettings: DEFAULT_RUN_SETTINGS,
      runList: [],
      currentRun: null,
      simulationMessage: null,

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
        const setup = await prepare();
        if (!setup) return;
        const scenarios = setup.handWrittenScenarios(setup.model);
        const { trials, generated, levels, seed } = get().runSettings;
        let samples: { policies: readonly string[]; level: number }[] = [];
        if (generated > 0) {
          if (!setup.generator) {
            set({
              simulationMessage:
                'Generating scenarios needs a model for the generator role (Models in the header).',
            });
            return;
          }
          const drawn = setup.sampleWithReport(setup.buildGraph(setup.model), {
            seed,
            count: generated,
            levels,
          });
          samples = drawn.samples.map((sample) => ({
            policies: sample.policies,
            level: sample.level,
          }));
          if (samples.length === 0) {
            set({
              simulationMessage: `No policy combination reaches levels ${levels.min}-${levels.max} in this graph.`,
            });
            return;
          }
        }
        if (scenarios.length === 0 && samples.length === 0) {
          set({
            simulationMessage:
              'scenarios.yaml has no scenarios to run yet; write some, or generate some.',
          });
          return;
        }
        const id = `run-${newId()}`;
        // Generation may fail for some samples, so the title counts what was asked for.
        const written = `${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}`;
        const asked = samples.length > 0 ? ` + ${samples.length} to generate` : '';
        const title = `${written}${asked} × ${trials} · ${setup.agent.model}`;
        await execute(
          setup,
          { id, title, scenarios, samples, trials, seed, previous: [] },
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
        const setup = await prepare();
        if (!setup) return;
        await execute(setup, {
          id: current.id,
          title: current.title,
          scenarios: [],
          samples: [],
          trials: started.trials,
          seed: started.seed,
          previous: current.events,
        });
      },
      cancelRun: () => {
        controller?.abort();
      },
      openRun: async (id) => {
        if (!runs || get().currentRun?.live) return;
        const stored = get().runList.find((r) => r.id === id);
        try {
          const events = (await runs.events(id)) as SimEvent[];
          set({ currentRun: { id, title: stored?.title ?? id, events, live: false, error: null } });
        } catch (error) {
          set({ simulationMessage: `The run could not be read: ${messageOf(error)}` });
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
