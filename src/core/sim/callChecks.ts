import type { LinearRegex } from '../regex/linear.ts';
import type { Transcript, TranscriptCall } from './transcript.ts';
import { agentMessages, describeCall, ordinal, succeeded, wasRefused } from './transcript.ts';

/*
 * The transcript checks about one agent turn and what comes before a call: `max_calls_per_turn`
 * and `say_before_call` (judging.ts runs them with the other kinds). An agent turn is one answer
 * of the agent model: its message and the tool calls it asked for together. A call a guard
 * refused still counts as an attempt.
 */

/** A check's outcome, as judging.ts reports it (`turn`: where it failed). */
export interface CallVerdict {
  readonly passed: boolean;
  readonly detail: string;
  readonly turn?: number;
}

/** How many calls one list of a turn may show before "and N more". */
const SHOWN_CALLS = 4;

/**
 * `max_calls_per_turn`: no agent turn may hold more than `max` tool calls (only calls to `tool`
 * when one is given). Fails at the first turn with more, naming its calls.
 */
export function callsPerTurn(
  calls: readonly TranscriptCall[],
  max: number,
  tool?: string,
): CallVerdict {
  const counted = tool === undefined ? calls : calls.filter((c) => c.tool === tool);
  const byTurn = new Map<number, TranscriptCall[]>();
  for (const call of counted) {
    const group = byTurn.get(call.turn);
    if (group) group.push(call);
    else byTurn.set(call.turn, [call]);
  }
  const groups = [...byTurn.values()].sort((a, b) => turnOf(a) - turnOf(b));
  const over = groups.filter((group) => group.length > max);
  const [first] = over;
  if (first) {
    const turn = turnOf(first);
    const reply = first[0]?.reply ?? 0;
    const shown = first.slice(0, SHOWN_CALLS).map(describeCall).join(', ');
    const hidden = first.length > SHOWN_CALLS ? ` and ${first.length - SHOWN_CALLS} more` : '';
    const more = over.length > 1 ? ` ${over.length - 1} later reply(s) had too many as well.` : '';
    const refused = first.filter(wasRefused).length;
    const note =
      refused > 0 ? ` A guard refused ${refused} of them, but an attempt still counts.` : '';
    return {
      passed: false,
      detail: `In its ${ordinal(reply)} reply the agent made ${countOf(first.length, tool)} at once, more than the ${max} allowed: ${shown}${hidden}.${more}${note}`,
      turn,
    };
  }
  const busiest = groups.reduce<TranscriptCall[] | undefined>(
    (most, group) => (most === undefined || group.length > most.length ? group : most),
    undefined,
  );
  if (!busiest)
    return {
      passed: true,
      detail: tool === undefined ? 'The agent called no tool.' : `The agent never called ${tool}.`,
    };
  return {
    passed: true,
    detail: `No reply of the agent’s had more than ${countOf(max, tool)}; the most was ${busiest.length}, in its ${ordinal(busiest[0]?.reply ?? 0)} reply.`,
  };
}

/**
 * `say_before_call`: before each call to `tool`, an agent message (earlier, or the calling turn's
 * own words) matches `pattern`. Once a call to the tool has run, the next call needs it said
 * again: stating the fare once does not cover a second booking. Fails at the first call without it.
 */
export function saidBeforeCall(
  transcript: Transcript,
  pattern: LinearRegex,
  tool: string,
): CallVerdict {
  const attempts = transcript.calls.filter((c) => c.tool === tool);
  if (attempts.length === 0) return { passed: true, detail: `The agent never called ${tool}.` };
  const said = agentMessages(transcript).flatMap((m) => {
    const found = pattern.exec(m.text)?.text;
    return found === undefined ? [] : [{ turn: m.turn, nth: m.nth, quote: clip(found) }];
  });
  const shown = `/${pattern.source}/`;
  const covering = new Map<number, string>();
  const missing: { call: TranscriptCall; since?: TranscriptCall }[] = [];
  for (const call of attempts) {
    const since = attempts.findLast((c) => c.turn < call.turn && succeeded(c));
    const saying = said.findLast(
      (s) => s.turn <= call.turn && (since === undefined || s.turn > since.turn),
    );
    if (saying) covering.set(saying.nth, saying.quote);
    else missing.push(since === undefined ? { call } : { call, since });
  }
  const [first] = missing;
  if (first) {
    const { call, since } = first;
    const when =
      since === undefined
        ? 'in that reply or before'
        : `since the call in its ${ordinal(since.reply)} reply`;
    const more =
      missing.length > 1 ? ` ${missing.length - 1} more call(s) had the same problem.` : '';
    return {
      passed: false,
      detail: `In its ${ordinal(call.reply)} reply the agent called ${describeCall(call)} without saying anything that matches ${shown} ${when}.${more}`,
      turn: call.turn,
    };
  }
  const where = [...covering]
    .map(([nth, quote]) => `its ${ordinal(nth)} reply ("${quote}")`)
    .join(', ');
  return {
    passed: true,
    detail: `Before every call to ${tool} the agent said something that matches ${shown}: ${where}.`,
  };
}

const turnOf = (group: readonly TranscriptCall[]): number => group[0]?.turn ?? 0;

function countOf(n: number, tool: string | undefined): string {
  const calls = n === 1 ? 'call' : 'calls';
  return tool === undefined ? `${n} tool ${calls}` : `${n} ${calls} to ${tool}`;
}

function clip(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * `silent_call`: a reply that calls `tool` (any tool when none is given) holds no words for the
 * user. Fails at the first reply with both, quoting its words.
 */
export function silentCalls(transcript: Transcript, tool?: string): CallVerdict {
  const counted =
    tool === undefined ? transcript.calls : transcript.calls.filter((c) => c.tool === tool);
  const replies = new Set(counted.map((c) => c.turn));
  const loud = agentMessages(transcript).filter((m) => replies.has(m.turn) && m.text.trim() !== '');
  const [first] = loud;
  if (first) {
    const call = counted.find((c) => c.turn === first.turn);
    const more = loud.length > 1 ? ` ${loud.length - 1} later reply(s) did the same.` : '';
    return {
      passed: false,
      detail: `In its ${ordinal(first.nth)} reply the agent called ${call ? describeCall(call) : 'a tool'} and also said "${clip(first.text)}": words and a call in one answer.${more}`,
      turn: first.turn,
    };
  }
  return {
    passed: true,
    detail:
      replies.size === 0
        ? tool === undefined
          ? 'The agent called no tool.'
          : `The agent never called ${tool}.`
        : `Each of the ${replies.size} replies with a call said nothing besides.`,
  };
}

/** What an agent says when it claims a call's outcome before the result (wait_for_result's default). */
export const OUTCOME_CLAIM =
  '\\b(?:done|completed?|all set|cancell?ed|refunded|updated|changed|processed|booked|submitted|has been|have been|is now|are now|went through|successfully)\\b';

/**
 * `wait_for_result`: a reply that calls `tool` (any when none is given) does not claim an outcome
 * (`pattern`) in its own words, which are written before the result is back.
 */
export function waitsForResult(
  transcript: Transcript,
  pattern: LinearRegex,
  tool?: string,
): CallVerdict {
  const counted =
    tool === undefined ? transcript.calls : transcript.calls.filter((c) => c.tool === tool);
  for (const message of agentMessages(transcript)) {
    const call = counted.find((c) => c.turn === message.turn);
    if (!call) continue;
    const claim = pattern.exec(message.text)?.text;
    if (claim !== undefined)
      return {
        passed: false,
        detail: `In its ${ordinal(message.nth)} reply the agent called ${describeCall(call)} and in the same answer said "${clip(message.text)}" ("${claim}"), before the call's result was back.`,
        turn: message.turn,
      };
  }
  return {
    passed: true,
    detail:
      counted.length === 0
        ? `The agent never called ${tool ?? 'a tool'}.`
        : 'No reply claimed a call’s outcome before its result.',
  };
}

/**
 * `transfer_only_when`: each call to the transfer `tool` comes after a message (the user's or
 * the agent's) matching `pattern`, or, with `afterRefusal`, after a call a guard or a
 * precondition refused. Fails at the first transfer with neither before it.
 */
export function transfersPermitted(
  transcript: Transcript,
  tool: string,
  pattern: LinearRegex | undefined,
  afterRefusal: boolean,
): CallVerdict {
  const transfers = transcript.calls.filter((c) => c.tool === tool);
  if (transfers.length === 0) return { passed: true, detail: `The agent never called ${tool}.` };
  const reasons: string[] = [];
  for (const call of transfers) {
    const said = transcript.messages.find(
      (m) => m.turn <= call.turn && pattern !== undefined && pattern.exec(m.text) !== undefined,
    );
    const refused = afterRefusal
      ? transcript.calls.find(
          (c) =>
            c.turn <= call.turn &&
            c !== call &&
            (wasRefused(c) || c.result?.refusedBy !== undefined),
        )
      : undefined;
    if (said)
      reasons.push(
        `the ${said.speaker === 'user' ? 'user' : 'agent'}’s ${ordinal(said.nth)} message`,
      );
    else if (refused) reasons.push(`the refused call in its ${ordinal(refused.reply)} reply`);
    else {
      const wanted = [
        ...(pattern ? [`a message matching /${pattern.source}/`] : []),
        ...(afterRefusal ? ['a refused attempt'] : []),
      ].join(' or ');
      return {
        passed: false,
        detail: `In its ${ordinal(call.reply)} reply the agent called ${describeCall(call)} with no ${wanted} before it: a transfer the policy does not permit here.`,
        turn: call.turn,
      };
    }
  }
  return { passed: true, detail: `Every transfer came after ${reasons.join(', ')}.` };
}
