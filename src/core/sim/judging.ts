import { compileCel, isCelProblem } from '../cel.ts';
import type { Check, EndState, GradedExpectation } from '../format/model.ts';
import type { LinearRegex } from '../regex/linear.ts';
import { PatternTooCostly, withMatchBudget } from '../regex/linear.ts';
import { compilePhrasePattern, slashPattern } from '../regex/phrase.ts';
import { aside } from '../text.ts';
import { requiredWithArgs } from './actionMatch.ts';
import { callsPerTurn, saidBeforeCall } from './callChecks.ts';
import type { Confirmations } from './confirmations.ts';
import { confirmBefore, confirmationsOf } from './confirmations.ts';
import type { Database, Finding, RowChange, SimScenario, TerminationReason } from './events.ts';
import { describeChange } from './database.ts';
import { endStateDifferences } from './endState.ts';
import { toPlain } from './plainValues.ts';
import { ERROR_ENDINGS, findingState } from './events.ts';
import { agentSide, userRequired } from './userSide.ts';
import type { Transcript, TranscriptCall } from './transcript.ts';
import {
  agentMessages,
  describeCall,
  netChanges,
  ordinal,
  succeeded,
  wasRefused,
} from './transcript.ts';

/*
 * Deterministic judging of one dialogue (DESIGN.md, "Judging, in order of trust", 1 and 2).
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
export function runChecks(checks: readonly Check[], whole: Transcript): Finding[] {
  // Rules hold the agent: the simulated user's own calls (dual control) are not its.
  const transcript = agentSide(whole);
  const confirmations = confirmationsOf(checks, transcript);
  return checks.map((check) => {
    const verdict = bounded(() => judgeCheck(check, transcript, confirmations));
    return finding(check.id, check.policy, verdict);
  });
}

interface Verdict {
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
function bounded(judge: () => Verdict): Verdict {
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

function finding(id: string, policy: string | undefined, verdict: Verdict): Finding {
  return { id, policy, ...verdict };
}

const pass = (detail: string): Verdict => ({ passed: true, detail });
const fail = (detail: string, turn?: number): Verdict =>
  turn === undefined ? { passed: false, detail } : { passed: false, detail, turn };
const skip = (why: string): Verdict => pass(`Skipped: ${why}`);

function judgeCheck(check: Check, transcript: Transcript, confirmations: Confirmations): Verdict {
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

/** Every call a guard rule refused: the agent tried what that rule's policy forbids. */
export function guardFindings(transcript: Transcript): Finding[] {
  const found: Finding[] = [];
  for (const call of transcript.calls) {
    const guard = call.guard;
    if (!guard || guard.allowed || guard.rule === undefined) continue;
    found.push({
      id: guard.rule,
      policy: guard.policy,
      passed: false,
      turn: call.turn,
      detail: `In its ${ordinal(call.reply)} reply the agent called ${describeCall(call)}; rule "${guard.rule}" refused it: ${guard.reason}`,
    });
  }
  return found;
}

/**
 * Judges the scenario's `expected` outcome: database assertions (CEL over `{ db: finalDb }`, with
 * the rows of the tables it reads that changed, field by field, when it fails), required and
 * forbidden actions (a call a guard refused is no failure here: the guard did its job and its
 * rule reports the attempt; a required action with `args` is matched as tau2-bench matches it,
 * actionMatch.ts), and phrases. A phrase is case-insensitive text found in an agent
 * message (any run of spaces matches any other), or a regular expression when written
 * `/like this/` (flags `iu`, as for rules.yaml patterns). Each finding names the policy its
 * expectation holds the agent to: the one scenarios.yaml names for it, or the scenario's only
 * policy; otherwise none, and its failure is unattributed.
 */
export function checkExpectations(
  scenario: SimScenario,
  whole: Transcript,
  finalDb: Database,
  startDb: Database,
  keys: ReadonlyMap<string, string> = new Map(),
): Finding[] {
  // The agent's actions are its own calls; a `requestor: user` action, the user's (userSide.ts).
  const transcript = agentSide(whole);
  // The policy the author named for the expectation; else the scenario's one policy, if it has
  // only one; else none, and a failure of it is unattributed.
  const only = scenario.policies.length === 1 ? scenario.policies[0] : undefined;
  const { expected } = scenario;
  const policyOf = (id: string) => expected.attributions?.[id] ?? only;
  const groups: [string, readonly string[], (item: string, id: string) => Verdict][] = [
    ['database', expected.database, (cel) => assertion(cel, transcript.changes, finalDb, startDb)],
    [
      'required_actions',
      expected.requiredActions,
      (tool, id) => {
        const args = expected.actionArgs?.[id];
        if (expected.requestors?.[id] === 'user') return userRequired(whole, tool, args);
        return args
          ? requiredWithArgs(transcript.calls, tool, args)
          : required(transcript.calls, tool);
      },
    ],
    ['forbidden_actions', expected.forbiddenActions, (tool) => forbidden(transcript.calls, tool)],
    [
      'must_say',
      expected.mustSay,
      (p) => says(transcript, phrase(p), `matches the phrase "${p}"`, 'must_say'),
    ],
    [
      'must_not_say',
      expected.mustNotSay,
      (p) => says(transcript, phrase(p), `matches the phrase "${p}"`, 'must_not_say'),
    ],
    [
      'user_assertions',
      expected.userAssertions ?? [],
      (cel) => userState(assertion(cel, whole.changes, finalDb, startDb)),
    ],
  ];
  const listed = groups.flatMap(([key, items, judge]) =>
    items.map((item, i) => {
      const id = `expected.${key}[${i}]`;
      return finding(
        id,
        policyOf(id),
        bounded(() => judge(item, id)),
      );
    }),
  );
  const end = expected.endState;
  const id = 'expected.end_state';
  const all = end
    ? [
        ...listed,
        finding(
          id,
          policyOf(id),
          bounded(() => endStateVerdict(end, whole.changes, startDb, keys)),
        ),
      ]
    : listed;
  return graded(all, expected.gradedBy, end !== undefined);
}

/**
 * The findings as `graded_by` reads them: one of an expectation the scenario is not graded by
 * that did not hold is kept, marked not graded, and never fails the dialogue. A scenario graded
 * by its end state that gives none cannot be graded: that is its fault, never a pass.
 */
function graded(
  findings: Finding[],
  by: readonly GradedExpectation[] | undefined,
  hasEnd: boolean,
): Finding[] {
  if (by === undefined) return findings;
  const basis = by.length === 0 ? 'nothing' : by.join(', ');
  const marked = findings.map((f): Finding => {
    const group = /^expected\.(\w+)/.exec(f.id)?.[1] as GradedExpectation | undefined;
    if (f.passed || group === undefined || by.includes(group)) return f;
    const { fault: _fault, unclear: _unclear, ...rest } = f;
    return {
      ...rest,
      passed: false,
      ungraded: true,
      detail: `Not graded (the scenario is graded by ${basis}): ${f.detail}`,
    };
  });
  if (!by.includes('end_state') || hasEnd) return marked;
  return [
    ...marked,
    {
      id: 'expected.end_state',
      policy: undefined,
      passed: false,
      fault: 'scenario',
      detail:
        'The scenario is graded by its end state (graded_by: end_state) but gives none, so it cannot be graded. This is a fault of the scenario, not the agent.',
    },
  ];
}

/** The database's end against `end_state`: every difference named, the first eight shown. */
function endStateVerdict(
  expected: EndState,
  changes: readonly RowChange[],
  startDb: Database,
  keys: ReadonlyMap<string, string>,
): Verdict {
  const differences = endStateDifferences(expected, changes, startDb, keys);
  const rows = Object.values(expected).reduce((n, table) => n + Object.keys(table).length, 0);
  if (differences.length === 0)
    return pass(
      `The database ends as expected: ${rows === 1 ? '1 row' : `${rows} rows`} changed as listed, and no other.`,
    );
  const shown = differences.slice(0, 8).map((d) => d.text);
  const more = differences.length > 8 ? `; and ${differences.length - 8} more` : '';
  return fail(`The database does not end as expected: ${shown.join('; ')}${more}.`);
}

/** A user assertion's verdict, labelled as the user's state (dual control). */
function userState(verdict: Verdict): Verdict {
  return { ...verdict, detail: `The user’s state: ${verdict.detail}` };
}

function assertion(
  source: string,
  changes: readonly RowChange[],
  finalDb: Database,
  startDb: Database,
): Verdict {
  const held = evaluate(source, finalDb);
  if (held === true) return pass(`Holds at the end: ${source}`);
  if (typeof held === 'string')
    return {
      passed: false,
      detail: `${held} This is a fault of the scenario, not the agent.`,
      fault: 'scenario',
    };
  const tables = tablesRead(source) ?? Object.keys(finalDb);
  const relevant = netChanges(changes).filter((c) => tables.includes(c.table));
  const atStart = evaluate(source, startDb);
  if (relevant.length === 0) {
    const before =
      atStart === false ? ' It did not hold at the start either: check the starting rows.' : '';
    return fail(
      `Does not hold at the end: ${source}. No row of ${tables.join(', ') || 'the database'} changed during the dialogue.${before}`,
    );
  }
  const shown = relevant.slice(0, 8).map(describeChange);
  const more = relevant.length > 8 ? `; and ${relevant.length - 8} more` : '';
  return fail(
    `Does not hold at the end: ${source}. Changes during the dialogue: ${shown.join('; ')}${more}.`,
  );
}

/** true, false, or why the assertion could not be judged. */
function evaluate(source: string, db: Database): boolean | string {
  const compiled = compileCel(source);
  if (isCelProblem(compiled)) return `The assertion is not valid CEL (${compiled.message}).`;
  try {
    const value = compiled.run({ db });
    if (typeof value === 'boolean') return value;
    return `The assertion gave ${JSON.stringify(toPlain(value))}, not true or false.`;
  } catch (error) {
    return `The assertion could not be evaluated ${aside(messageOf(error))}.`;
  }
}

function tablesRead(source: string): string[] | undefined {
  const names = new Set<string>();
  for (const m of source.matchAll(/\bdb\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])/g))
    names.add(m[1] ?? m[2] ?? '');
  return names.size > 0 ? [...names] : undefined;
}

function required(calls: readonly TranscriptCall[], tool: string): Verdict {
  const attempts = calls.filter((c) => c.tool === tool);
  const done = attempts.find(succeeded);
  if (done)
    return pass(`${tool} ran in the agent’s ${ordinal(done.reply)} reply: ${describeCall(done)}.`);
  const last = attempts.at(-1);
  if (!last) return fail(`The agent never called ${tool}.`);
  return fail(
    `The agent called ${tool} ${times(attempts.length)} but it never ran: in its ${ordinal(last.reply)} reply, ${whyNotRun(last)}.`,
    last.turn,
  );
}

function forbidden(calls: readonly TranscriptCall[], tool: string): Verdict {
  const attempts = calls.filter((c) => c.tool === tool);
  const done = attempts.find(succeeded);
  if (done) {
    const changed = done.result?.changes.length ?? 0;
    return fail(
      `${tool} ran in the agent’s ${ordinal(done.reply)} reply: ${describeCall(done)}, changing ${changed} row(s).`,
      done.turn,
    );
  }
  const first = attempts[0];
  if (!first) return pass(`The agent never called ${tool}.`);
  const rule = first.guard?.rule;
  const reported = rule === undefined ? '' : ` The attempt is reported under rule "${rule}".`;
  return pass(
    `${tool} never ran: in the agent’s ${ordinal(first.reply)} reply, ${whyNotRun(first)}.${reported}`,
  );
}

function whyNotRun(call: TranscriptCall): string {
  if (call.guard && !call.guard.allowed) {
    const by = call.guard.rule === undefined ? 'a guard' : `rule "${call.guard.rule}"`;
    return `${by} refused it (${call.guard.reason})`;
  }
  if (call.result) return `it failed (${clip(call.result.text)})`;
  return 'it got no result';
}

function says(
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

/**
 * A scenario phrase: a regular expression when written /like this/, else literal text whose
 * commas are optional, as tau2-bench reads what an agent must communicate: "1628" is said by
 * "1,628", "Paris Lyon" by "Paris, Lyon". A comma the phrase writes must be there.
 */
function phrase(text: string): LinearRegex | string {
  const written = slashPattern(text);
  if (written !== undefined) return compilePhrasePattern(written);
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'the phrase is empty.';
  const literal = (word: string) =>
    Array.from(word)
      .map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join(',?')
      .replace(/,\?,/g, ',');
  return compilePhrasePattern(words.map(literal).join(',?\\s+,?'));
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

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

function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

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

/**
 * The "do-nothing agent" baseline: would the scenario's expectations hold if the agent only
 * answered, called no tool and left the database (`startDb`: seed plus the scenario's rows) as it
 * was? A scenario that passes this way cannot tell a working agent from an idle one.
 */
export function passesWithoutAgent(
  scenario: SimScenario,
  startDb: Database,
): { passes: boolean; detail: string } {
  const idle: Transcript = {
    dialogue: `${scenario.id}:do-nothing`,
    messages: [],
    calls: [],
    changes: [],
  };
  const findings = checkExpectations(scenario, idle, startDb, startDb);
  if (findings.length === 0)
    return {
      passes: true,
      detail: 'The scenario expects nothing, so any agent passes it, even one that does nothing.',
    };
  const failing = findings.filter((f) => !f.passed).map((f) => f.id);
  if (failing.length > 0)
    return { passes: false, detail: `An agent that does nothing fails ${failing.join(', ')}.` };
  return {
    passes: true,
    detail: `Every expectation (${findings.map((f) => f.id).join(', ')}) holds when the agent calls no tool and the database stays as it started, so the scenario cannot tell a working agent from one that does nothing.`,
  };
}
