import type { LinearRegex } from '../regex/linear.ts';
import { PatternTooCostly, withMatchBudget } from '../regex/linear.ts';
import type { Finding } from './events.ts';
import type { Transcript } from './transcript.ts';
import { agentMessages, ordinal } from './transcript.ts';

/*
 * One finding's verdict (held or not, why, where), as the rules' checks (judging.ts) and the
 * scenario's expectations (expectations.ts) both write it, and the phrase matching they share.
 */

export interface Verdict {
  readonly passed: boolean;
  readonly detail: string;
  readonly turn?: number;
  /** The scenario, not the agent, is why it could not be judged. */
  readonly fault?: 'scenario';
  /** Reading alone could not settle it (confirm_before after an unclear reply). */
  readonly unclear?: true;
}

/**
 * One check or expectation matches its pattern under one budget across every agent message
 * (linear.ts `withMatchBudget`); a pattern too costly on the agent's text judges nothing: the
 * finding is an error of the pattern, which makes the dialogue an error, never a pass.
 */
export function bounded(judge: () => Verdict): Verdict {
  try {
    return withMatchBudget(judge);
  } catch (error) {
    if (!(error instanceof PatternTooCostly)) throw error;
    return {
      passed: false,
      detail: `Not judged: ${error.message} This is a fault of the pattern, not the agent.`,
      fault: 'scenario',
    };
  }
}

export function finding(id: string, policy: string | undefined, verdict: Verdict): Finding {
  return { id, policy, ...verdict };
}

export const pass = (detail: string): Verdict => ({ passed: true, detail });
export const fail = (detail: string, turn?: number): Verdict =>
  turn === undefined ? { passed: false, detail } : { passed: false, detail, turn };
export const skip = (why: string): Verdict => pass(`Skipped: ${why}`);

export function says(
  transcript: Transcript,
  pattern: LinearRegex | string,
  shown: string,
  kind: 'must_say' | 'must_not_say',
): Verdict {
  if (typeof pattern === 'string') return skip(pattern);
  const hit = firstMatch(transcript, pattern);
  if (kind === 'must_say') {
    return hit
      ? pass(`The agent said it in its ${ordinal(hit.nth)} reply: "${hit.quote}".`)
      : fail(`No agent message ${shown}.`);
  }
  return hit
    ? fail(
        `In its ${ordinal(hit.nth)} reply the agent said "${hit.quote}", which ${shown}.`,
        hit.turn,
      )
    : pass(`No agent message ${shown}.`);
}

function firstMatch(
  transcript: Transcript,
  pattern: LinearRegex,
): { turn: number; nth: number; quote: string } | undefined {
  for (const message of agentMessages(transcript)) {
    const found = pattern.exec(message.text)?.text;
    if (found !== undefined) return { turn: message.turn, nth: message.nth, quote: clip(found) };
  }
  return undefined;
}

export function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);
