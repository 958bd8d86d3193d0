import type { ProjectModel, Row } from '../format/model.ts';
import type { ChatMessage, ChatToolCall } from '../models/chat.ts';
import type { PastCall } from '../rules/guards.ts';
import { rowKey, validateRow } from './database.ts';
import type { Database, RowChange, SimEvent, SimScenario } from './events.ts';
import { runStartOf } from './events.ts';

/*
 * Continuing a dialogue from one of its agent turns: the turns before it are copied from the
 * source log (never asked of a model again), and the database, the guard's call history and what
 * each side has seen are rebuilt from them, so the dialogue goes on as if it had never stopped.
 */

/** The events of a dialogue that a continued dialogue copies: what was said and done. */
export type PrefixEvent = Extract<
  SimEvent,
  { type: 'message' | 'tool-call' | 'guard' | 'tool-result' }
>;

/** The start of a dialogue that a continued dialogue copies instead of asking the models again. */
export interface DialoguePrefix {
  /** The raw message index of the agent turn re-run; the prefix holds every turn before it. */
  readonly turn: number;
  /**
   * The source dialogue's messages before `turn`, and the tool calls, guard decisions and tool
   * results of those turns (an `ask_user` answer between a call and its result included), in
   * log order.
   */
  readonly events: readonly PrefixEvent[];
}

/** Where a dialogue can be continued from, or why it cannot (in words a person understands). */
export type ForkPoint =
  | {
      readonly ok: true;
      readonly prefix: DialoguePrefix;
      /** The dialogue's scenario as the source log recorded it (the user's brief unchanged). */
      readonly scenario: SimScenario;
      readonly scenarioSource: 'hand-written' | 'generated';
      /** The simulated `now` the source run saw, when its log records one. */
      readonly now?: string;
    }
  | { readonly ok: false; readonly problem: string };

type RunStarted = Extract<SimEvent, { type: 'run-started' }>;

/**
 * Where dialogue `dialogue` of a run's log can be continued from agent message `turn` (its raw
 * index): the events before that turn, and the dialogue's scenario. Refused, with the reason,
 * when the log has no such dialogue or does not record its scenario, when `turn` is not one of
 * the agent's messages in it, or when the run's agent was the person's own bot (its tool calls
 * and database were never seen, so there is nothing to rebuild them from).
 */
export function dialoguePrefix(
  events: readonly SimEvent[],
  dialogue: string,
  turn: number,
): ForkPoint {
  const started = runStartOf(events);
  if (!started) return { ok: false, problem: 'The run’s log has no start.' };
  if (started.externalAgent)
    return {
      ok: false,
      problem:
        'This run’s agent was your own bot behind its endpoint: its tool calls and database were never seen, so its dialogues cannot be continued from a turn.',
    };
  const own = dialogueEvents(events, dialogue);
  if (!own) return { ok: false, problem: `The run has no dialogue “${dialogue}”.` };
  const spoke = own.events.some(
    (e) => e.type === 'message' && e.turn === turn && e.speaker === 'agent',
  );
  if (!spoke)
    return {
      ok: false,
      problem: `Message ${turn} of “${dialogue}” is not one of the agent’s replies; only the agent’s replies can be re-run.`,
    };
  return forkAt(events, own, turn, started);
}

/**
 * The start a continued run copies, read back from that run's own log (for resuming it after an
 * interruption): its dialogue's events before the turn its `run-started` names. Refused when the
 * log is not of a continued run, or stopped before the copied start was saved.
 */
export function continuedPrefix(events: readonly SimEvent[]): ForkPoint {
  const started = runStartOf(events);
  if (started?.source?.kind !== 'continued')
    return { ok: false, problem: 'This run was not continued from another.' };
  const begun = events.find((e) => e.type === 'dialogue-started');
  if (!begun)
    return {
      ok: false,
      problem:
        'This continued run stopped before its copied start was saved; continue the dialogue from its source run again.',
    };
  const own = dialogueEvents(events, begun.dialogue);
  if (!own) return { ok: false, problem: 'The continued run’s log has no dialogue.' };
  return forkAt(events, own, started.source.turn, started);
}

/** A dialogue's start event and its events since (the last start: a resumed run re-runs one). */
function dialogueEvents(events: readonly SimEvent[], dialogue: string) {
  let start = -1;
  events.forEach((e, i) => {
    if (e.type === 'dialogue-started' && e.dialogue === dialogue) start = i;
  });
  const first = events[start];
  if (first?.type !== 'dialogue-started') return undefined;
  return {
    scenario: first.scenario,
    events: events.slice(start + 1).filter((e) => 'dialogue' in e && e.dialogue === dialogue),
  };
}

function forkAt(
  events: readonly SimEvent[],
  own: NonNullable<ReturnType<typeof dialogueEvents>>,
  turn: number,
  started: RunStarted,
): ForkPoint {
  const logged = events.find((e) => e.type === 'scenario' && e.scenario.id === own.scenario);
  if (logged?.type !== 'scenario')
    return {
      ok: false,
      problem: `The run does not record the scenario “${own.scenario}” its dialogue played.`,
    };
  // Whether the latest call of each id is before the turn: a guard decision and a result follow
  // their call, and models may use one id in several turns.
  const before = new Map<string, boolean>();
  const prefix: PrefixEvent[] = [];
  for (const e of own.events) {
    if (e.type === 'tool-call') before.set(e.call, e.turn < turn);
    if ((e.type === 'message' || e.type === 'tool-call') && e.turn < turn) prefix.push(e);
    else if ((e.type === 'guard' || e.type === 'tool-result') && before.get(e.call) === true)
      prefix.push(e);
  }
  const turns = new Set(prefix.flatMap((e) => (e.type === 'message' ? [e.turn] : [])));
  if (turns.size !== turn)
    return {
      ok: false,
      problem: `The log is missing messages before message ${turn} of its dialogue, so it cannot be continued from there.`,
    };
  return {
    ok: true,
    prefix: { turn, events: prefix },
    scenario: logged.scenario,
    scenarioSource: logged.source,
    ...(started.now !== undefined && { now: started.now }),
  };
}

/** Appends a copy of the prefix's events to dialogue `dialogue`: same turns and call ids, `at` now. */
export function copyPrefix(
  prefix: DialoguePrefix,
  dialogue: string,
  clock: () => number,
  emit: (event: SimEvent) => void,
): void {
  for (const event of prefix.events) emit({ ...event, dialogue, at: clock() });
}

/** What a continued dialogue starts from, rebuilt from its copied prefix. */
export interface ForkState {
  /** The database after the prefix's changes; the starting one when they cannot be made. */
  readonly db: Database;
  /** Why the prefix's changes cannot be made on this project's tables (a scenario error). */
  readonly problem?: string;
  /** The prefix's calls, as the guard rules see the dialogue's history. */
  readonly history: PastCall[];
  /** What the agent saw after its system prompt: the customer, its own replies and calls, results. */
  readonly agentView: readonly ChatMessage[];
  /** What the simulated user saw after its brief and the opening: the agent's words, its own. */
  readonly userView: readonly ChatMessage[];
  /** The simulated user's turns taken (its answers to `ask_user` questions not counted). */
  readonly userTurns: number;
  /** The agent's replies since the customer's last message (its tool-calling rounds so far). */
  readonly rounds: number;
}

/**
 * The state a continued dialogue goes on from: `start` (the project's seed and the scenario's
 * rows) with the prefix's row changes made in order, the guard history of its calls, and both
 * sides' views as the dialogue built them: the agent sees the customer as `user`, itself as
 * `assistant` with its tool calls, and each result (or refusal) as the `tool` message it was
 * told; the simulated user sees the agent's spoken replies as `user` and its own as `assistant`.
 * Answers to `ask_user` questions reach neither view, as in the dialogue itself.
 */
export function forkState(model: ProjectModel, start: Database, prefix: DialoguePrefix): ForkState {
  const callsOf = new Map<number, ChatToolCall[]>();
  for (const e of prefix.events) {
    if (e.type !== 'tool-call' || e.by !== undefined) continue;
    const call = { id: e.call, name: e.tool, arguments: JSON.stringify(e.args) };
    callsOf.set(e.turn, [...(callsOf.get(e.turn) ?? []), call]);
  }
  const agentView: ChatMessage[] = [];
  const userView: ChatMessage[] = [];
  const history: PastCall[] = [];
  const pending = new Set<string>();
  let lastCall: Extract<PrefixEvent, { type: 'tool-call' }> | undefined;
  let db: Database = start;
  let problem: string | undefined;
  let userTurns = 0;
  let rounds = 0;
  // Calls of the user's own tools and setup calls (dual control), by id as the last call with
  // that id was made: they change the database but are no part of the agent's view or history.
  const notAgents = new Map<string, boolean>();
  for (const e of prefix.events) {
    if (e.type === 'tool-call') notAgents.set(e.call, e.by !== undefined);
    if (e.type === 'tool-call' && e.by !== undefined) continue;
    if (e.type === 'message' && e.speaker === 'user') {
      // Said while a call waited for its result: the answer to a guard's `ask_user` question.
      if (pending.size > 0) continue;
      userView.push({ role: 'assistant', content: e.text });
      agentView.push({ role: 'user', content: e.text });
      userTurns++;
      rounds = 0;
    } else if (e.type === 'message') {
      const toolCalls = callsOf.get(e.turn) ?? [];
      agentView.push(
        toolCalls.length > 0
          ? { role: 'assistant', content: e.text, toolCalls }
          : { role: 'assistant', content: e.text },
      );
      if (toolCalls.length === 0) userView.push({ role: 'user', content: e.text });
      rounds++;
    } else if (e.type === 'tool-call') {
      pending.add(e.call);
      lastCall = e;
    } else if (e.type === 'guard' && lastCall?.call === e.call) {
      // As the dialogue added it: once the guard had decided.
      history.push({ tool: lastCall.tool, args: lastCall.args, allowed: e.allowed });
    } else if (e.type === 'tool-result') {
      pending.delete(e.call);
      if (notAgents.get(e.call) !== true)
        agentView.push({ role: 'tool', toolCallId: e.call, content: e.result });
      for (const change of e.changes) {
        if (problem !== undefined) break;
        const made = applyChange(model, db, change);
        if (typeof made === 'string') problem = made;
        else db = made;
      }
    }
  }
  return {
    db: problem === undefined ? db : start,
    ...(problem !== undefined && { problem }),
    history,
    agentView,
    userView,
    userTurns,
    rounds,
  };
}

/** The database with one recorded change made, by table and key; or why it cannot be made. */
export function applyChange(
  model: ProjectModel,
  db: Database,
  change: RowChange,
): Database | string {
  const table = model.tables.find((t) => t.name === change.table);
  const rows = Object.hasOwn(db, change.table) ? db[change.table] : undefined;
  const cannot = `The dialogue’s start cannot be rebuilt on this project:`;
  if (!table || !rows)
    return `${cannot} it changed table “${change.table}”, which the project no longer has.`;
  const row: Row | undefined = change.kind === 'delete' ? change.before : change.after;
  const key = row ? rowKey(row, table.key) : change.key;
  const at = rows.findIndex((r) => rowKey(r, table.key) === key);
  if (change.kind === 'delete') return { ...db, [table.name]: rows.filter((_, i) => i !== at) };
  if (!row) return `${cannot} its change to “${table.name}” ${key} has no row.`;
  const wrong = validateRow(table, row);
  if (wrong.length > 0)
    return `${cannot} the row of “${table.name}” it changed (${table.key} ${key}) no longer fits: ${wrong.join(' ')}`;
  const next = at < 0 ? [...rows, row] : rows.map((r, i) => (i === at ? row : r));
  return { ...db, [table.name]: next };
}
