import type { ProjectModel } from '../format/model.ts';
import type {
  Cancellation,
  ChatDelta,
  ChatMessage,
  ChatRequest,
  ModelRole,
  ToolSpec,
} from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { RetryPolicy, RetryRuntime } from '../models/retry.ts';
import type { PriceTable } from '../models/usage.ts';
import type { PastCall } from '../rules/guards.ts';
import { seedDatabase } from './database.ts';
import type { Database, SimEvent, SimScenario, TerminationReason } from './events.ts';
import type { DialoguePrefix } from './fork.ts';
import { copyPrefix, forkState } from './fork.ts';
import type { Player } from './modelCall.ts';
import { cutByBudget, loggedChat } from './modelCall.ts';
import type { BudgetGuard } from './budget.ts';
import type { PromptTemplate } from './prompts.ts';
import {
  ASK_USER_PROMPT,
  CHAT_OPENS,
  USER_STOP,
  USER_TOOLS_NOTE,
  renderPrompt,
  userSimulatorPrompt,
} from './prompts.ts';
import { answerToolCall } from './toolCall.ts';
import { runInitialization } from './initialization.ts';
import { toolSpecsOf } from './userSide.ts';
import type { DialogueLimits } from './limits.ts';
import { DEFAULT_LIMITS } from './limits.ts';

export type { Player } from './modelCall.ts';

/** What a dialogue needs from the run: models, time, money and where events go. */
export interface DialogueDeps {
  readonly agent: Player;
  /**
   * The agent under test is the user's own bot behind an endpoint, with its own prompt and
   * tools: it is sent only the conversation, and its tool calls (made on its side) are not seen.
   */
  readonly externalAgent?: boolean;
  readonly user: Player;
  readonly runtime: RetryRuntime;
  readonly retry?: RetryPolicy;
  /** Milliseconds since the run started (events carry it). */
  readonly clock: () => number;
  /** The simulated date and time conditions see as `now` (ISO-8601), fixed for the run. */
  readonly now: string;
  readonly prices: PriceTable;
  readonly signal?: Cancellation;
  readonly emit: (event: SimEvent) => void;
  /** True once the run's token or money budget is spent. */
  readonly overBudget?: () => boolean;
  /** The run's budget, which caps each call's output by what is left (see budget.ts). */
  readonly budget?: BudgetGuard;
  /**
   * Told as each model call of the dialogue starts; the sink it returns hears the answer as it
   * streams in (never logged: the log keeps the finished message). For showing words as they come.
   */
  readonly onModelCall?: (role: ModelRole) => ((delta: ChatDelta) => void) | undefined;
  /** The project's own versions of the simulated user's prompts; the built-in ones otherwise. */
  readonly prompts?: {
    readonly userSimulator?: PromptTemplate;
    readonly askUser?: PromptTemplate;
  };
}

export type { DialogueLimits } from './limits.ts';
export { DEFAULT_LIMITS } from './limits.ts';

/** How a dialogue ended, and the databases to judge it by. */
export interface DialogueResult {
  readonly ending: TerminationReason;
  readonly detail: string;
  readonly startDb: Database;
  readonly finalDb: Database;
}

/** Thrown inside a dialogue to end it for a reason (and the role whose call failed, if one did). */
class Ending extends Error {
  readonly reason: TerminationReason;
  readonly detail: string;
  readonly role: ModelRole | undefined;
  constructor(reason: TerminationReason, detail: string, role?: ModelRole) {
    super(detail);
    this.reason = reason;
    this.detail = detail;
    this.role = role;
  }
}

/** A model call of the dialogue failed; `role` says whose. */
class FailedCall extends Error {
  readonly role: 'agent' | 'user';
  readonly failure: unknown;
  constructor(role: 'agent' | 'user', failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.role = role;
    this.failure = failure;
  }
}

/**
 * The dialogue's own cancellation: the run's cancel, or its time limit running out. `dispose`
 * lets go of both once the dialogue is over.
 */
function dialogueStop(deps: DialogueDeps, limits: DialogueLimits) {
  const stop = deps.runtime.controller();
  const timer = deps.runtime.controller();
  let timedOut = false;
  const cancel = () => {
    stop.abort('cancelled');
  };
  deps.signal?.addEventListener('abort', cancel, { once: true });
  void deps.runtime.sleep(limits.timeLimitMs, timer.signal).then(
    () => {
      if (timer.signal.aborted) return;
      timedOut = true;
      stop.abort('time-limit');
    },
    () => undefined,
  );
  return {
    signal: stop.signal,
    timedOut: () => timedOut,
    dispose: () => {
      deps.signal?.removeEventListener('abort', cancel);
      timer.abort();
    },
  };
}

/** What each side sees of the conversation: the agent's prompt and tools, the user's brief. */
function openingViews(model: ProjectModel, scenario: SimScenario, deps: DialogueDeps) {
  // Each side is offered only its own tools (dual control: the user's act on the user's state).
  const tools: ToolSpec[] = deps.externalAgent ? [] : toolSpecsOf(model, 'agent');
  const userTools = toolSpecsOf(model, 'user');
  const agentView: ChatMessage[] = deps.externalAgent
    ? []
    : [{ role: 'system', content: model.prompt }];
  const brief = userSimulatorPrompt(scenario, deps.prompts?.userSimulator);
  const userView: ChatMessage[] = [
    {
      role: 'system',
      content: userTools.length > 0 ? `${brief}\n\n${USER_TOOLS_NOTE}` : brief,
    },
    { role: 'user', content: CHAT_OPENS },
  ];
  return { tools, userTools, agentView, userView };
}

/**
 * Runs one dialogue between the simulated user and the agent under test, appending every step
 * to the log through `deps.emit`: messages, tool calls, the guard's decision on each (before it
 * runs), tool results with their database changes, usage (of failed calls too), and why it
 * ended. A refused call gets its rule's fallback: a message back to the agent, the end of the
 * dialogue, or a question put to the simulated user. Failures of a provider or a model end the
 * dialogue as an error (never a policy failure), and a scenario whose rows do not fit its tables
 * ends as a `scenario-error` before any model is asked; the run is never thrown out by them.
 * With a `prefix` (a dialogue continued from an agent turn), the prefix's events are copied into
 * the log, the database, guard history and both sides' views are rebuilt from them (`forkState`),
 * and the agent answers first; the prefix's user turns count toward `maxTurns`.
 */
export async function runDialogue(
  model: ProjectModel,
  scenario: SimScenario,
  id: { readonly dialogue: string; readonly trial: number },
  deps: DialogueDeps,
  limits: DialogueLimits = DEFAULT_LIMITS,
  prefix?: DialoguePrefix,
): Promise<DialogueResult> {
  const { dialogue } = id;
  const { emit, clock } = deps;
  emit({ type: 'dialogue-started', at: clock(), dialogue, scenario: scenario.id, trial: id.trial });
  if (prefix) copyPrefix(prefix, dialogue, clock, emit);
  const { db: startDb, problems } = seedDatabase(model, scenario.rows);
  const fork = prefix && forkState(model, startDb, prefix);
  let db = fork?.db ?? startDb;
  const stop = dialogueStop(deps, limits);
  const { tools, userTools, agentView, userView } = openingViews(model, scenario, deps);
  agentView.push(...(fork?.agentView ?? []));
  userView.push(...(fork?.userView ?? []));
  const history: PastCall[] = fork?.history ?? [];
  let turn = prefix?.turn ?? 0;
  const say = (speaker: 'user' | 'agent', text: string) => {
    emit({ type: 'message', at: clock(), dialogue, turn, speaker, text });
    return turn++;
  };

  const ask = (role: 'agent' | 'user', request: Omit<ChatRequest, 'model'>) => {
    if (deps.signal?.aborted) throw new Ending('cancelled', 'The run was stopped.');
    if (deps.overBudget?.()) throw new Ending('budget', 'The run’s budget was spent.');
    const onDelta = deps.onModelCall?.(role);
    // A snapshot: the conversation goes on growing after the call.
    return loggedChat(
      role,
      role === 'agent' ? deps.agent : deps.user,
      { ...request, messages: [...request.messages] },
      deps,
      { dialogue, signal: stop.signal, ...(onDelta && { onDelta }) },
    ).catch((failure: unknown) => {
      // An answer broken because the budget capped its length: the budget's doing.
      if (cutByBudget(failure)) throw new Ending('budget', 'The run’s budget was spent.');
      throw new FailedCall(role, failure);
    });
  };

  /**
   * The simulated user's next message, and whether it said it is done. With `withTools`, the
   * user is offered its own tools (dual control) and may call them first, as the agent does: its
   * calls run on the database and their results go back to it, attached to the words that came
   * with them (or, when none did, to its next message).
   */
  const userSpeaks = async (view: ChatMessage[], withTools = false) => {
    const offered = withTools && userTools.length > 0;
    for (let round = 0; ; round++) {
      if (round >= limits.maxToolRounds)
        throw new Ending(
          'user-error',
          `The simulated user called its tools ${limits.maxToolRounds} times in a row without speaking.`,
          'user',
        );
      const answer = await ask('user', {
        messages: view,
        ...(offered && { tools: userTools }),
        temperature: 0.7,
        maxTokens: 300,
      });
      const text = answer.message.content;
      const calls = offered ? (answer.message.toolCalls ?? []) : [];
      if (calls.length === 0)
        return { text: text.replace(USER_STOP, '').trim(), done: text.includes(USER_STOP) };
      const words = text.replace(USER_STOP, '').trim();
      const at = words === '' ? turn : say('user', words);
      if (words !== '') agentView.push({ role: 'user', content: words });
      view.push(answer.message);
      for (const call of calls) {
        const outcome = await answerToolCall(call, db, {
          model,
          dialogue,
          turn: at,
          by: 'user',
          now: deps.now,
          clock,
          emit,
          history,
          askUser: () => Promise.resolve(''),
        });
        db = outcome.db;
        if (outcome.projectError !== undefined)
          throw new Ending('project-error', outcome.projectError);
        view.push({ role: 'tool', toolCallId: call.id, content: outcome.content });
      }
    }
  };

  /**
   * Before the first turn (dual control): the scenario's `initialization:` calls on the starting
   * database, each logged as a setup call, then its `message_history:` as the dialogue's first
   * messages, seen by both sides. Tells whether the agent is the one to answer next.
   */
  const setUp = (): boolean => {
    const setup = runInitialization(model, db, scenario.initialization ?? [], deps.now, (step) => {
      const call = `setup-${step.index + 1}`;
      const { tool, args } = step.call;
      emit({ type: 'tool-call', at: clock(), dialogue, turn, call, tool, args, by: 'setup' });
      emit({
        type: 'tool-result',
        at: clock(),
        dialogue,
        call,
        ok: step.ok,
        result: step.result,
        changes: step.changes,
      });
    });
    db = setup.db;
    if (setup.problem !== undefined)
      throw new Ending('scenario-error', `The scenario's initialization failed: ${setup.problem}`);
    for (const { role, content } of scenario.messageHistory ?? []) {
      say(role === 'user' ? 'user' : 'agent', content);
      userView.push({ role: role === 'user' ? 'assistant' : 'user', content });
      agentView.push({ role, content });
    }
    return scenario.messageHistory?.at(-1)?.role === 'user';
  };

  /** The agent answers, calling tools as it likes, until it speaks without calling one. */
  const agentAnswers = async (roundsSoFar = 0) => {
    for (let round = roundsSoFar; ; round++) {
      if (round >= limits.maxToolRounds) {
        throw new Ending(
          'max-turns',
          `The agent called tools ${limits.maxToolRounds} times in a row without answering.`,
        );
      }
      const answer = await ask('agent', {
        messages: agentView,
        ...(tools.length > 0 && { tools }),
        maxTokens: 600,
      });
      const calls = answer.message.toolCalls ?? [];
      const agentTurn = say('agent', answer.message.content);
      agentView.push(answer.message);
      if (calls.length === 0) {
        userView.push({ role: 'user', content: answer.message.content });
        return;
      }
      for (const call of calls) {
        const outcome = await answerToolCall(call, db, {
          model,
          dialogue,
          turn: agentTurn,
          now: deps.now,
          clock,
          emit,
          history,
          askUser: async ({ tool, args, reason }) => {
            const question = renderPrompt(deps.prompts?.askUser ?? ASK_USER_PROMPT, {
              tool,
              args: JSON.stringify(args),
              reason,
            });
            const reply = await userSpeaks([...userView, { role: 'user', content: question }]);
            if (reply.text !== '') say('user', reply.text);
            return reply.text;
          },
        });
        db = outcome.db;
        if (outcome.projectError !== undefined)
          throw new Ending('project-error', outcome.projectError);
        if (outcome.ends !== undefined) throw new Ending('guard-end', outcome.ends);
        agentView.push({ role: 'tool', toolCallId: call.id, content: outcome.content });
      }
    }
  };

  let ending: Ending;
  try {
    if (problems.length > 0)
      throw new Ending('scenario-error', `The scenario's rows are invalid: ${problems.join('; ')}`);
    if (fork?.problem !== undefined) throw new Ending('scenario-error', fork.problem);
    if (fork) await agentAnswers(fork.rounds);
    else if (setUp()) await agentAnswers();
    for (let userTurns = fork?.userTurns ?? 0; ; userTurns++) {
      if (userTurns >= limits.maxTurns)
        throw new Ending('max-turns', `The user spoke ${limits.maxTurns} times.`);
      const user = await userSpeaks(userView, true);
      if (user.text === '' && !user.done)
        throw new Ending('user-error', 'The simulated user sent an empty message.', 'user');
      if (user.done && turn === 0)
        throw new Ending(
          'user-error',
          'The simulated user ended the conversation before the agent could say anything.',
          'user',
        );
      if (user.text !== '') {
        say('user', user.text);
        userView.push({ role: 'assistant', content: user.text });
        agentView.push({ role: 'user', content: user.text });
      }
      if (user.done) throw new Ending('user-done', 'The simulated user ended the conversation.');
      await agentAnswers();
    }
  } catch (thrown) {
    ending = endingOf(thrown, stop.timedOut(), deps.signal);
  } finally {
    stop.dispose();
  }
  emit({
    type: 'dialogue-ended',
    at: clock(),
    dialogue,
    reason: ending.reason,
    detail: ending.detail,
    ...(ending.role && { role: ending.role }),
  });
  return { ending: ending.reason, detail: ending.detail, startDb, finalDb: db };
}

/**
 * Why a dialogue stopped, from what was thrown. Something that is not a ModelError is a fault in
 * an engine adapter; it ends this dialogue as an error instead of taking the whole run down.
 */
function endingOf(thrown: unknown, timedOut: boolean, signal: Cancellation | undefined): Ending {
  if (thrown instanceof Ending) return thrown;
  const role = thrown instanceof FailedCall ? thrown.role : undefined;
  const error = thrown instanceof FailedCall ? thrown.failure : thrown;
  if (!(error instanceof ModelError)) {
    if (signal?.aborted) return new Ending('cancelled', 'The run was stopped.');
    const message = error instanceof Error ? error.message : String(error);
    return new Ending('provider-error', `The engine failed unexpectedly: ${message}`, role);
  }
  if (error.kind === 'aborted' || timedOut) {
    if (timedOut) return new Ending('time-limit', 'The dialogue ran past its time limit.');
    if (signal?.aborted) return new Ending('cancelled', 'The run was stopped.');
  }
  if (error.modelFault) {
    // The agent under test answering badly is its failure; the simulated user's is an error.
    return role === 'agent'
      ? new Ending('agent-error', error.message, 'agent')
      : new Ending('user-error', error.message, role);
  }
  return new Ending('provider-error', error.message, role);
}
