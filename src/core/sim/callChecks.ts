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
