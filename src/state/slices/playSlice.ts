import type { StateCreator } from 'zustand';
import type {
  ChatDelta,
  ChatEngine,
  Check,
  HumanSeat,
  RunRepository,
  Scheduler,
  SeatReply,
  SeatTurn,
  SimEvent,
  SimScenario,
} from '../../core/index.ts';
import {
  DEFAULT_RETRY,
  NOTHING_EXPECTED,
  PERSON,
  createRecorder,
  runClock,
  withDeadline,
} from '../../core/index.ts';
import type { Simulator } from '../../workers/simulationClient.ts';
import type { AppState } from '../createAppStore.ts';
import type { ModelServices } from './modelsSlice.ts';
import { choosePlayers } from './players.ts';
import { checkedProject } from './simulationSlice.ts';

/** Which side the person plays. */
export type Seat = 'user' | 'agent';

/** How the next game of play is set up. */
export interface PlaySettings {
  readonly seat: Seat;
  /** A scenario of scenarios.yaml, or null to play on the seed data alone. */
  readonly scenario: string | null;
  /** Without a scenario, what the simulated customer wants (when the person is the agent). */
  readonly goal: string;
}

/** A game of play: a one-dialogue run where a person holds one seat. */
export interface PlaySession {
  readonly id: string;
  readonly title: string;
  readonly seat: Seat;
  readonly scenario: SimScenario;
  /** The transcript checks of rules.yaml, judged live as the dialogue grows. */
  readonly checks: readonly Check[];
  /** The agent's system prompt: with the scenario, what grounds the facts the agent states. */
  readonly prompt: string;
  /** The model playing the other side. */
  readonly opponent: string;
  readonly events: readonly SimEvent[];
  readonly live: boolean;
  /** The turn waiting for the person, if any. */
  readonly turn: SeatTurn | undefined;
  /** The model's answer as it streams in, until its message is logged. */
  readonly streaming: { readonly text: string; readonly tools: readonly string[] } | null;
  /** Why the person's last answer was refused; cleared by the next answer. */
  readonly problem: string | null;
  readonly error: string | null;
}

export interface PlaySlice {
  playSettings: PlaySettings;
  play: PlaySession | null;
  setPlaySettings: (patch: Partial<PlaySettings>) => void;
  /** Starts a dialogue with the person in the chosen seat and a model in the other. */
  startPlay: () => Promise<void>;
  /** Answers the turn waiting for the person; false (with `problem` set) when it was refused. */
  answerPlay: (reply: SeatReply) => boolean;
  /** In the customer's seat: says a last message (or none) and ends the conversation. */
  finishPlay: (text: string) => boolean;
  /** Stops the game at once; what was said stays in the log. */
  stopPlay: () => void;
  /** Puts the finished game away, back to the set-up. */
  closePlay: () => void;
}

export const DEFAULT_PLAY_SETTINGS: PlaySettings = { seat: 'user', scenario: null, goal: '' };

/** Play has no clock to race: a person may take their time. */
/** How often a streaming answer is shown again: about three frames, whatever the provider sends. */
const STREAM_FRAME_MS = 50;

const PLAY_LIMITS = { maxTurns: 40, timeLimitMs: 6 * 3_600_000 };

/** The scenario id of a free game. */
export const FREE_PLAY = 'free-play';

/** The scenario of a free game: the seed data, and a customer with the goal given (if any). */
export function freePlayScenario(goal: string): SimScenario {
  return {
    id: FREE_PLAY,
    policies: [],
    persona: 'A customer of this service, polite but in a hurry.',
    goal: goal.trim() === '' ? 'Get help with something this service handles.' : goal.trim(),
    knows: [],
    unknown: [],
    rows: {},
    expected: NOTHING_EXPECTED,
  };
}

/** Builds the play slice over the run store, the model engines and the simulation runner. */
export function createPlaySlice(
  runs: RunRepository | undefined,
  models: ModelServices | undefined,
  simulate: Simulator,
  newId: () => string,
  now: () => string,
  scheduler: Scheduler,
): StateCreator<AppState, [], [], PlaySlice> {
  let controller: AbortController | undefined;
  let seat: HumanSeat | undefined;
  let lastWords: ((text: string) => SeatReply) | undefined;
  return (set, get) => {
    const update = (id: string, patch: Partial<PlaySession>) => {
      const play = get().play;
      if (play?.id === id) set({ play: { ...play, ...patch } });
    };
    let calls = 0;
    /**
     * The sink of one streamed answer: its first piece is shown at once, the rest at most once a
     * frame (a provider may send thousands of pieces a second), until its message is logged.
     */
    const streamTo = (id: string) => {
      const call = ++calls;
      let text = '';
      const tools: string[] = [];
      let shown = { text: '', tools: 0 };
      let timer: unknown;
      /** Shows what came since last time, if anything did; tells whether it did. */
      const show = () => {
        // A later call, or the logged message, has taken this one's place.
        if (call !== calls || get().play?.streaming === null) return false;
        if (shown.text === text && shown.tools === tools.length) return false;
        shown = { text, tools: tools.length };
        update(id, { streaming: { text, tools: [...tools] } });
        return true;
      };
      // Once shown, nothing more is until a frame has passed, and then only what is new.
      const wait = () => {
        timer = scheduler.setTimeout(() => {
          if (show()) wait();
          else timer = undefined;
        }, STREAM_FRAME_MS);
      };
      update(id, { streaming: { text, tools } });
      return (delta: ChatDelta) => {
        if (delta.kind === 'text') text += delta.text;
        else if (delta.name) tools.push(delta.name);
        if (timer !== undefined) return;
        show();
        wait();
      };
    };
    const answer = (reply: SeatReply) => {
      const play = get().play;
      const turn = play?.turn;
      if (!play || !turn || !seat) return false;
      const outcome = seat.answer(turn.id, reply);
      update(play.id, { problem: outcome.ok ? null : outcome.problem });
      return outcome.ok;
    };

    return {
      playSettings: DEFAULT_PLAY_SETTINGS,
      play: null,
      setPlaySettings: (patch) => {
        set({ playSettings: { ...get().playSettings, ...patch } });
      },
      startPlay: async () => {
        const state = get();
        if (state.play?.live) return;
        const { seat: side, scenario: scenarioId, goal } = state.playSettings;
        const players = choosePlayers(state);
        const opponent = side === 'user' ? players.agent : players.user;
        if (!models || !opponent) {
          set({
            simulationMessage: `Choose a model for the ${side === 'user' ? 'agent' : 'simulated user'} first: load one in this browser, or give it an endpoint (Models in the header).`,
          });
          return;
        }
        const checked = await checkedProject(set, get);
        if (!checked) return;
        const [{ planRun }, seats] = await Promise.all([
          import('../../core/sim/plan.ts'),
          import('../../core/sim/seat.ts'),
        ]);
        const id = `run-${newId()}`;
        const person = seats.createHumanSeat((turn) => {
          update(id, { turn, problem: null });
        });
        const you = { engine: person.engine, model: PERSON };
        // The person may take their time; the models keep the usual limit per call.
        const timed = <P extends { engine: ChatEngine }>(player: P): P => ({
          ...player,
          engine: withDeadline(player.engine, DEFAULT_RETRY.timeoutMs, models.runtime),
        });
        const other = timed(opponent);
        const judge = players.judge && timed(players.judge);
        const planned = planRun(
          checked.project,
          {
            seed: 1,
            trials: 1,
            concurrency: 1,
            maxTurns: PLAY_LIMITS.maxTurns,
            timeLimitMs: PLAY_LIMITS.timeLimitMs,
            scenarios: scenarioId === null ? 'none' : [scenarioId],
            ...(scenarioId === null && { ownScenarios: [freePlayScenario(goal)] }),
            agent: side === 'agent' ? you : other,
            user: side === 'user' ? you : other,
            ...(judge && { judge }),
            externalAgent: side === 'user' && players.externalAgent,
            prices: state.modelSettings.prices,
            freeModels: [PERSON, ...players.freeModels],
            now: now(),
          },
          checked.model,
        );
        const scenario = planned.ok ? planned.plan.scenarios[0]?.scenario : undefined;
        if (!planned.ok || !scenario) {
          set({
            simulationMessage: planned.ok ? 'There is no scenario to play.' : planned.problem,
          });
          return;
        }
        const who = side === 'user' ? 'you as the customer' : 'you as the agent';
        const title = `Play · ${who} · ${scenario.id} · ${opponent.model}`;
        controller = new AbortController();
        seat = person;
        lastWords = seats.lastWords;
        set({
          simulationMessage: null,
          play: {
            id,
            title,
            seat: side,
            scenario,
            checks: planned.model.checks,
            prompt: planned.model.prompt,
            opponent: opponent.model,
            events: [],
            live: true,
            turn: undefined,
            streaming: null,
            problem: null,
            error: null,
          },
        });
        // Each event is shown and saved as it comes (a game is slow); a failed write is said.
        const recorder = createRecorder({
          ...(runs && { sink: { append: (from, events) => runs.append(id, from, events) } }),
          ...(runs && {
            ready: runs.create({ id, projectId: state.projectId, createdAt: now(), title }),
          }),
          batchMs: 0,
          scheduler,
          onShow: (events) => {
            const last = events.at(-1)?.type;
            const said = last === 'message' || last === 'dialogue-ended';
            update(id, { events, ...(said && { streaming: null }) });
          },
          onSaveError: (error) => {
            update(id, {
              error: `This game could not be saved on this device: ${messageOf(error)}`,
            });
          },
        });
        try {
          await simulate(planned.model, planned.plan, {
            runtime: models.runtime,
            retry: { ...DEFAULT_RETRY, timeoutMs: PLAY_LIMITS.timeLimitMs },
            clock: runClock(models.clock),
            signal: controller.signal,
            onModelCall: (_, role) => {
              if (role !== (side === 'user' ? 'agent' : 'user')) return undefined;
              return streamTo(id);
            },
            emit: recorder.emit,
          });
        } catch (error) {
          update(id, { error: messageOf(error) });
        } finally {
          await recorder.close();
          update(id, { live: false, turn: undefined, streaming: null });
          controller = undefined;
          seat = undefined;
          lastWords = undefined;
          await get().refreshRuns();
        }
      },
      answerPlay: answer,
      finishPlay: (text) => {
        if (get().play?.seat !== 'user' || !lastWords) return false;
        return answer(lastWords(text));
      },
      stopPlay: () => {
        controller?.abort();
      },
      closePlay: () => {
        if (!get().play?.live) set({ play: null });
      },
    };
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
