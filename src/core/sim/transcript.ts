import { sameRow } from './plainValues.ts';
import type { CallMaker, RowChange, SimEvent, Speaker, TerminationReason } from './events.ts';

/** What the guard rules decided about one tool call. */
export interface TranscriptGuard {
  readonly allowed: boolean;
  /** The rule that decided, when a rule did (not a default or an unknown tool). */
  readonly rule?: string;
  readonly policy?: string;
  readonly fallback?: 'message' | 'end' | 'ask_user';
  readonly reason: string;
  /** The refusing rule's `attempt: noted`: the attempt does not fail the dialogue. */
  readonly noted?: true;
}

/** What a tool call that ran gave back, and what it did to the database. */
export interface TranscriptResult {
  readonly ok: boolean;
  readonly text: string;
  readonly changes: readonly RowChange[];
  /** The precondition encoding a policy that refused the call, when one did. */
  readonly refusedBy?: Extract<SimEvent, { type: 'tool-result' }>['refusedBy'];
}

/** One tool call of the agent, with the guard's decision and the result when they were logged. */
export interface TranscriptCall {
  readonly call: string;
  /** The agent message (turn) the call belongs to: its raw index among the messages. */
  readonly turn: number;
  /** Which reply of the agent's it came in, as a reader counts them (1: its first reply). */
  readonly reply: number;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly guard?: TranscriptGuard;
  readonly result?: TranscriptResult;
  /** The simulated user's call or a setup call (dual control); absent for the agent's. */
  readonly by?: CallMaker;
}

/** One message of the dialogue, with the tool calls of that turn (the speaker's own). */
export interface TranscriptMessage {
  /** The raw index among the dialogue's messages (what the log and findings record). */
  readonly turn: number;
  /** Which of its speaker's messages this is, as a reader counts them, from 1. */
  readonly nth: number;
  readonly speaker: Speaker;
  readonly text: string;
  readonly calls: readonly TranscriptCall[];
}

/** How the dialogue ended. */
export interface TranscriptEnding {
  readonly reason: TerminationReason;
  readonly detail: string;
}

/**
 * One dialogue folded from the event log: what judging and replay read instead of raw events.
 * `calls` holds every call in log order, including calls of a turn whose message never came
 * (a dialogue can end between a call and the agent's next words).
 */
export interface Transcript {
  readonly dialogue: string;
  /** The scenario and trial, when the log has the dialogue's start. */
  readonly scenario?: string;
  readonly trial?: number;
  /** Ordered by turn. */
  readonly messages: readonly TranscriptMessage[];
  readonly calls: readonly TranscriptCall[];
  /** Undefined while the dialogue is still running (or the log was cut short). */
  readonly ending?: TranscriptEnding;
  /** Every database change, in the order the calls made them. */
  readonly changes: readonly RowChange[];
}

interface MutableCall {
  call: string;
  turn: number;
  reply: number;
  tool: string;
  args: Readonly<Record<string, unknown>>;
  guard?: TranscriptGuard;
  result?: TranscriptResult;
  by?: CallMaker;
}

/** Folds the events of one dialogue into its transcript; other dialogues' events are ignored. */
export function transcriptOf(events: readonly SimEvent[], dialogue: string): Transcript {
  let scenario: string | undefined;
  let trial: number | undefined;
  let ending: TranscriptEnding | undefined;
  const said: { turn: number; speaker: Speaker; text: string }[] = [];
  const calls: MutableCall[] = [];
  const byId = new Map<string, MutableCall>();
  const changes: RowChange[] = [];

  for (const event of events) {
    if (!('dialogue' in event) || event.dialogue !== dialogue) continue;
    switch (event.type) {
      case 'dialogue-started':
        // A dialogue started again (a resumed run re-plays one cut off mid-way) starts afresh.
        scenario = event.scenario;
        trial = event.trial;
        ending = undefined;
        said.length = 0;
        calls.length = 0;
        byId.clear();
        changes.length = 0;
        break;
      case 'message':
        said.push({ turn: event.turn, speaker: event.speaker, text: event.text });
        break;
      case 'tool-call': {
        const call: MutableCall = {
          call: event.call,
          turn: event.turn,
          reply: 0,
          tool: event.tool,
          args: event.args,
          ...(event.by && { by: event.by }),
        };
        calls.push(call);
        byId.set(event.call, call);
        break;
      }
      case 'guard': {
        const call = byId.get(event.call);
        if (call) call.guard = guardOf(event);
        break;
      }
      case 'tool-result': {
        const call = byId.get(event.call);
        if (call)
          call.result = {
            ok: event.ok,
            text: event.result,
            changes: event.changes,
            ...(event.refusedBy && { refusedBy: event.refusedBy }),
          };
        for (const change of event.changes) changes.push(change);
        break;
      }
      case 'dialogue-ended':
        ending = { reason: event.reason, detail: event.detail };
        break;
      default:
        break;
    }
  }

  const sorted = said
    .map((m, order) => ({ ...m, order }))
    .sort((a, b) => a.turn - b.turn || a.order - b.order);
  const counts = { user: 0, agent: 0 };
  const messages = sorted.map(({ turn, speaker, text }) => ({
    turn,
    nth: ++counts[speaker],
    speaker,
    text,
    calls: calls.filter(
      (c) => c.turn === turn && c.by === (speaker === 'user' ? 'user' : undefined),
    ),
  }));
  // A call whose words never came (the dialogue ended between them) is in the reply after the
  // agent's last one (a user's call, in the user's next message; a setup call, in none).
  for (const call of calls) {
    if (call.by === 'setup') continue;
    const speaker = call.by ?? 'agent';
    call.reply =
      messages.find((m) => m.speaker === speaker && m.turn === call.turn)?.nth ??
      messages.filter((m) => m.speaker === speaker && m.turn < call.turn).length + 1;
  }
  return {
    dialogue,
    ...(scenario === undefined ? {} : { scenario }),
    ...(trial === undefined ? {} : { trial }),
    messages,
    calls,
    ...(ending === undefined ? {} : { ending }),
    changes,
  };
}

function guardOf(event: Extract<SimEvent, { type: 'guard' }>): TranscriptGuard {
  return {
    allowed: event.allowed,
    ...(event.rule === undefined ? {} : { rule: event.rule }),
    ...(event.policy === undefined ? {} : { policy: event.policy }),
    ...(event.fallback === undefined ? {} : { fallback: event.fallback }),
    reason: event.reason,
    ...(event.noted && { noted: true as const }),
  };
}

/** Whether a guard refused the call (the tool did not run). */
export function wasRefused(call: TranscriptCall): boolean {
  return call.guard?.allowed === false;
}

/** Whether the call was allowed and the tool ran without error. */
export function succeeded(call: TranscriptCall): boolean {
  return !wasRefused(call) && call.result?.ok === true;
}

/** The agent's messages, in order. */
export function agentMessages(transcript: Transcript): readonly TranscriptMessage[] {
  return transcript.messages.filter((m) => m.speaker === 'agent');
}

/** A call as a person reads it: `tool({"arg":"value"})`. */
export function describeCall(call: Pick<TranscriptCall, 'tool' | 'args'>): string {
  let args: string;
  try {
    args = JSON.stringify(call.args);
  } catch {
    args = '{…}';
  }
  return `${call.tool}(${args})`;
}

/** The dialogue's database changes netted per row (first `before`, last `after`), no-ops left out. */
export function netChanges(changes: readonly RowChange[]): RowChange[] {
  const byRow = new Map<string, { first: RowChange; last: RowChange }>();
  for (const change of changes) {
    const id = `${change.table}\u0000${change.key}`;
    const seen = byRow.get(id);
    if (seen) seen.last = change;
    else byRow.set(id, { first: change, last: change });
  }
  const net: RowChange[] = [];
  for (const { first, last } of byRow.values()) {
    const { table, key } = first;
    const { before } = first;
    const { after } = last;
    if (before && after) {
      if (!sameRow(before, after)) net.push({ table, key, kind: 'update', before, after });
    } else if (after) net.push({ table, key, kind: 'insert', after });
    else if (before) net.push({ table, key, kind: 'delete', before });
  }
  return net;
}

/** 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * A message as a reader names it: "the agent's 3rd reply", "the customer's 2nd message". Turns
 * are shown this way wherever a person reads them; the log keeps the raw index.
 */
export function turnLabel(speaker: Speaker, nth: number): string {
  return speaker === 'agent'
    ? `the agent’s ${ordinal(nth)} reply`
    : `the customer’s ${ordinal(nth)} message`;
}

/**
 * The reader's name for each raw turn of a dialogue, from its messages in order (`message`
 * events); a turn no message has is named by the agent's reply it would have been.
 */
export function readerTurns(
  messages: readonly { readonly turn: number; readonly speaker: Speaker }[],
): (turn: number) => string {
  const counts = { user: 0, agent: 0 };
  const names = new Map<number, string>();
  for (const m of [...messages].sort((a, b) => a.turn - b.turn)) {
    names.set(m.turn, turnLabel(m.speaker, ++counts[m.speaker]));
  }
  return (turn) =>
    names.get(turn) ??
    turnLabel('agent', messages.filter((m) => m.speaker === 'agent' && m.turn < turn).length + 1);
}
