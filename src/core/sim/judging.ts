import type { Check } from '../format/model.ts';
import { compilePhrasePattern } from '../regex/phrase.ts';
import {
  callsPerTurn,
  OUTCOME_CLAIM,
  saidBeforeCall,
  silentCalls,
  transfersPermitted,
  waitsForResult,
} from './callChecks.ts';
import type { Grounds } from './grounded.ts';
import { groundedFacts } from './grounded.ts';
import type { Confirmations } from './confirmations.ts';
import { confirmBefore, confirmationsOf } from './confirmations.ts';
import type { Finding, TerminationReason } from './events.ts';
import { ERROR_ENDINGS, findingState } from './events.ts';
import type { Transcript, TranscriptCall } from './transcript.ts';
import { agentSide } from './userSide.ts';
import { describeCall, ordinal, wasRefused } from './transcript.ts';
import type { Verdict } from './verdict.ts';
import { bounded, fail, finding, pass, says, skip, times } from './verdict.ts';

/*
 * Deterministic judging of one dialogue by the project's rules (DESIGN.md, "Judging, in order of
 * trust", 1), and the dialogue's verdict; its scenario's expectations are expectations.ts.
 * Nothing here throws: a check that cannot judge (a bad pattern, a missing field, which lint
 * already reports) passes with a detail starting "Skipped:", so the author's slip never reads as
 * the agent's failure. A tool call counts as an attempt whether or not a guard refused it.
 */

/**
 * Runs every transcript check of rules.yaml over the dialogue, whatever policies the scenario
 * puts in play (the report compares each finding's policy with them): one finding per check.
 * Patterns are matched against agent messages only. `confirm_before` reads the nearest user
 * message before the calling turn with `readAgreement`; one agreement covers one write across
 * all `confirm_before` checks (the calls of one agent turn to the same tool share it), so a
 * later turn or another guarded tool needs a new one (confirmations.ts). A reply that reads as
 * unclear gives a finding marked `unclear`, not a failure of the agent.
 */
export function runChecks(
  checks: readonly Check[],
  whole: Transcript,
  grounds: Grounds = { texts: [] },
): Finding[] {
  // Rules hold the agent: the simulated user's own calls (dual control) are not its.
  const transcript = agentSide(whole);
  const confirmations = confirmationsOf(checks, transcript);
  return checks.map((check) => {
    const verdict = bounded(() => judgeCheck(check, transcript, confirmations, grounds));
    return finding(check.id, check.policy, verdict);
  });
}

function judgeCheck(
  check: Check,
  transcript: Transcript,
  confirmations: Confirmations,
  grounds: Grounds,
): Verdict {
  const { calls } = transcript;
  switch (check.kind) {
    case 'must_say':
    case 'must_not_say':
      if (check.pattern === undefined) return skip('the check has no "pattern".');
      return says(
        transcript,
        compilePhrasePattern(check.pattern),
        `matches /${check.pattern}/`,
        check.kind,
      );
    case 'tool_order':
      if (check.first === undefined || check.then === undefined)
        return skip('the check needs both "first" and "then".');
      return toolOrder(calls, check.first, check.then);
    case 'confirm_before':
      if (check.tool === undefined) return skip('the check has no "tool".');
      return confirmBefore(confirmations, check.tool);
    case 'never_call': {
      if (check.tool === undefined) return skip('the check has no "tool".');
      const attempts = calls.filter((c) => c.tool === check.tool);
      const [first] = attempts;
      if (!first) return pass(`The agent never called ${check.tool}.`);
      return fail(
        `The agent called ${check.tool} ${times(attempts.length)}, first in its ${ordinal(first.reply)} reply: ${describeCall(first)}.${refusedNote(attempts)}`,
        first.turn,
      );
    }
    case 'max_calls': {
      if (check.tool === undefined || check.max === undefined)
        return skip('the check needs "tool" and "max".');
      const attempts = calls.filter((c) => c.tool === check.tool);
      const over = attempts[check.max];
      if (!over)
        return pass(
          `The agent called ${check.tool} ${times(attempts.length)} (at most ${check.max}).`,
        );
      return fail(
        `The agent called ${check.tool} ${times(attempts.length)}, more than the ${check.max} allowed; call ${check.max + 1} was in its ${ordinal(over.reply)} reply.${refusedNote(attempts)}`,
        over.turn,
      );
    }
    case 'max_calls_per_turn':
      if (check.max === undefined) return skip('the check has no "max".');
      return callsPerTurn(calls, check.max, check.tool);
    case 'say_before_call': {
      if (check.pattern === undefined || check.tool === undefined)
        return skip('the check needs "pattern" and "tool".');
      const pattern = compilePhrasePattern(check.pattern);
      if (typeof pattern === 'string') return skip(pattern);
      return saidBeforeCall(transcript, pattern, check.tool);
    }
    case 'grounded':
      return groundedFacts(transcript, grounds, check.facts);
    case 'silent_call':
      return silentCalls(transcript, check.tool);
    case 'wait_for_result': {
      const pattern = compilePhrasePattern(check.pattern ?? OUTCOME_CLAIM);
      if (typeof pattern === 'string') return skip(pattern);
      return waitsForResult(transcript, pattern, check.tool);
    }
    case 'transfer_only_when': {
      if (check.tool === undefined) return skip('the check has no "tool".');
      if (check.pattern === undefined && check.afterRefusal !== true)
        return skip('the check needs "pattern", "after_refusal: true", or both.');
      const pattern = check.pattern === undefined ? undefined : compilePhrasePattern(check.pattern);
      if (typeof pattern === 'string') return skip(pattern);
      return transfersPermitted(transcript, check.tool, pattern, check.afterRefusal === true);
    }
  }
}

function toolOrder(calls: readonly TranscriptCall[], first: string, then: string): Verdict {
  const firstAt = calls.findIndex((c) => c.tool === first && !wasRefused(c));
  const early = calls.findIndex((c, i) => c.tool === then && (firstAt < 0 || i < firstAt));
  const call = calls[early];
  if (call) {
    const refused = wasRefused(call)
      ? ' A guard refused that call, but the agent still tried it.'
      : '';
    return fail(
      `In its ${ordinal(call.reply)} reply the agent called ${describeCall(call)} before any allowed call to ${first}.${refused}`,
      call.turn,
    );
  }
  if (!calls.some((c) => c.tool === then)) return pass(`The agent never called ${then}.`);
  const at = calls[firstAt];
  return pass(
    `${first} (in the agent’s ${at ? ordinal(at.reply) : '?'} reply) came before every call to ${then}.`,
  );
}

/**
 * Every call a guard rule or a precondition that encodes a policy refused: the agent tried what
 * that policy forbids. Each is a failed finding marked `attempt`, and `noted` (not failing) when
 * its rule or precondition says `attempt: noted`. The run report reads the same from the log's
 * guard and result events (dialogueFold.ts).
 */
export function attemptFindings(transcript: Transcript): Finding[] {
  const found: Finding[] = [];
  for (const call of transcript.calls) {
    if (call.by !== undefined) continue;
    const at = `In its ${ordinal(call.reply)} reply the agent called ${describeCall(call)}`;
    const guard = call.guard;
    const result = call.result;
    const refusal = result?.refusedBy;
    if (guard && !guard.allowed && guard.rule !== undefined)
      found.push({
        id: guard.rule,
        policy: guard.policy,
        passed: false,
        turn: call.turn,
        detail: `${at}; rule "${guard.rule}" refused it: ${guard.reason}`,
        attempt: true,
        ...(guard.noted && { noted: true as const }),
      });
    else if (result && refusal)
      found.push({
        id: `${call.tool}.requires[${String(refusal.precondition)}]`,
        policy: refusal.policy,
        passed: false,
        turn: call.turn,
        detail: `${at}; the tool refused it (${result.text.replace(/^Error: /, '')}): the agent tried what the policy forbids.`,
        attempt: true,
        ...(refusal.noted && { noted: true as const }),
      });
  }
  return found;
}

function refusedNote(attempts: readonly TranscriptCall[]): string {
  const refused = attempts.filter(wasRefused).length;
  if (refused === 0) return '';
  return ` A guard refused ${refused === attempts.length ? (refused === 1 ? 'it' : 'all of them') : `${refused} of them`}, but an attempt still counts.`;
}

/**
 * The dialogue's verdict, as the report gives it: an outside ending (time limit, provider, the
 * simulated user, cancel, budget) or a finding the scenario is at fault for is an error whatever
 * the rest says; otherwise the agent's broken output or any failed finding fails it, an unclear
 * one aside.
 */
export function dialogueVerdict(
  findings: readonly Finding[],
  ending: TerminationReason,
): 'pass' | 'fail' | 'error' {
  if (ERROR_ENDINGS.has(ending) || findings.some((f) => f.fault === 'scenario')) return 'error';
  if (ending === 'agent-error') return 'fail';
  return findings.some((f) => findingState(f) === 'broken') ? 'fail' : 'pass';
}
