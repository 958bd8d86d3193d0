import { sameRow } from './database.ts';
import type { RowChange, SimEvent, Speaker, TerminationReason } from './events.ts';

/** What the guard rules decided about one tool call. */
export interface TranscriptGuard {
  readonly allowed: boolean;
  /** The rule that decided, when a rule did (not a default or an unknown tool). */
  readonly rule?: string;
  readonly policy?: string;
  readonly fallback?: 'message' | 'end' | 'ask_user';
  readonly reason: string;
}

/** What a tool call that ran gave back, and what it did to the database. */
export interface TranscriptResult {
  readonly ok: boolean;
  readonly text: string;
  readonly changes: readonly RowChange[];
}

/** One tool call of the agent, with the guard's decision and the result when they were logged. */
export interface TranscriptCall {
  readonly call: string;
  /** The agent message (turn) the call belongs to. */
  readonly turn: number;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly guard?: TranscriptGuard;
  readonly result?: TranscriptResult;
}

/** One message of the dialogue, with the tool calls of that turn (agent turns only). */
export interface TranscriptMessage {
  readonly turn: number;
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
  tool: string;
  args: Readonly<Record<string, unknown>>;
  guard?: TranscriptGuard;
  result?: TranscriptResult;
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
          tool: event.tool,
          args: event.args,
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
        if (call) call.result = { ok: event.ok, text: event.result, changes: event.changes };
        changes.push(...event.changes);
        break;
      }
      case 'dialogue-ended':
        ending = { reason: event.reason, detail: event.detail };
        break;
      default:
        break;
    }
  }

  const messages = said
    .map((m, order) => ({ ...m, order }))
    .sort((a, b) => a.turn - b.turn || a.order - b.order)
    .map(({ turn, speaker, text }) => ({
      turn,
      speaker,
      text,
      calls: speaker === 'agent' ? calls.filter((c) => c.turn === turn) : [],
    }));
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

/** How a user's message reads as the answer to "shall I go ahead?", and the words that decided. */
export interface Agreement {
  readonly agrees: boolean;
  /** The refusal or the yes that decided; undefined when the message has neither. */
  readonly cue?: string;
}

// A refusal anywhere wins over any yes: "Yes. Actually no, wait" does not agree.
const REFUSALS: readonly RegExp[] = [
  /(?:^|[.,;:!?—–-]\s*)(?:no|nope|nah|negative)\b(?!\s+(?:problem|worries|doubt|rush|hurry)\b)/,
  /\bnot\s+(?:yet|now|right now|today|sure|ok|okay|correct|right|really|quite|so fast|that|this)\b/,
  /\b(?:don't|dont|do not|never)\s+(?!(?:need|want|mind|care|worry|forget)\b)\w+/,
  /(?<!can't |cannot )\bwait\b/,
  /\b(?:hold on|hang on|never ?mind|changed? my mind|on second thought|rather not|let me think)\b/,
  /(?:^|[.,;:!?]\s*)stop\b/,
];

const YES =
  /\b(?:yes|yeah|yea|yep|yup|sure|ok|okay|alright|all right|correct|confirm|confirmed|absolutely|definitely|certainly|affirmative|agreed|i agree|go ahead|go for it|please do|do it|proceed|that's right|that is right|sounds good|that's fine|fine by me|of course|i don't mind)\b/;

/** A question's lead that answers before asking more: "Yes please, can you also ...?". */
const LEADING_YES =
  /^(?:(?:yes|yeah|yep|yup|sure|ok|okay|alright|absolutely|of course|please)\b[\s!]*)+$/;

/**
 * Reads a user's message as agreement, deterministically. It agrees when it has a yes (yes, sure,
 * ok, correct, confirm, go ahead, please do, do it, proceed, sounds good, ...) and no refusal
 * anywhere: a "no" opening a clause (not "no problem", "no rush"), "not" before yet/now/sure/ok/correct/...,
 * "don't"/"do not"/"never" before a verb (but "I don't need it anymore" is no refusal), wait, hold
 * on, never mind, changed my mind, on second thought, rather not, or a clause-opening "stop". A
 * yes inside a question counts only as its lead ("Sure, can you email me?" but not "Is that ok?").
 * A bare request ("Please cancel ABC123") is not agreement: the agent has to ask first.
 */
export function readAgreement(text: string): Agreement {
  const said = text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  for (const refusal of REFUSALS) {
    const found = refusal.exec(said)?.[0];
    if (found !== undefined) return { agrees: false, cue: found.replace(/^[^a-z']+/, '') };
  }
  for (const sentence of said.match(/[^.!?]+[.!?]*/g) ?? []) {
    const asked = sentence.trimEnd().endsWith('?');
    const lead = asked ? (sentence.split(',')[0] ?? '').trim() : sentence;
    if (asked && !LEADING_YES.test(lead)) continue;
    const found = YES.exec(lead)?.[0];
    if (found !== undefined) return { agrees: true, cue: found };
  }
  return { agrees: false };
}
