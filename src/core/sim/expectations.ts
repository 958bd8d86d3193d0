import { compileCel, isCelProblem } from '../cel.ts';
import type { EndState, GradedExpectation, ProjectModel } from '../format/model.ts';
import { policyOfTool } from '../format/toolPolicy.ts';
import type { LinearRegex } from '../regex/linear.ts';
import { compilePhrasePattern, slashPattern } from '../regex/phrase.ts';
import { aside } from '../text.ts';
import { requiredWithArgs } from './actionMatch.ts';
import { describeChange } from './database.ts';
import type { EndStateDifference } from './endState.ts';
import { endStateDifferences } from './endState.ts';
import type { Database, Finding, RowChange, SimScenario } from './events.ts';
import { findingState } from './events.ts';
import { toPlain } from './plainValues.ts';
import type { Transcript, TranscriptCall } from './transcript.ts';
import { describeCall, netChanges, ordinal, succeeded } from './transcript.ts';
import { agentSide, userRequired } from './userSide.ts';
import type { Verdict } from './verdict.ts';
import { bounded, clip, fail, finding, pass, says, times } from './verdict.ts';

/*
 * Judging a dialogue against its scenario's `expected` outcome (DESIGN.md, "Judging, in order of
 * trust", 2): database and user assertions, required and forbidden actions, phrases, the end
 * state, and what of them decides the verdict (`graded_by`).
 */

/**
 * Judges the scenario's `expected` outcome: database assertions (CEL over `{ db: finalDb }`, with
 * the rows of the tables it reads that changed, field by field, when it fails), required and
 * forbidden actions (a call a guard refused is no failure here: the guard did its job and its
 * rule reports the attempt; a required action with `args` is matched as tau2-bench matches it,
 * actionMatch.ts), and phrases. A phrase is case-insensitive text found in an agent
 * message (any run of spaces matches any other), or a regular expression when written
 * `/like this/` (flags `iu`, as for rules.yaml patterns). Each finding names the policy its
 * expectation holds the agent to: the one scenarios.yaml names for it, or the scenario's only
 * policy; a state that does not hold and a wrong end are charged to the step the agent missed
 * or the call that did the harm (`chargeStates`, `endStatePolicy`); otherwise none, and the
 * failure is unattributed.
 */
export function checkExpectations(
  scenario: SimScenario,
  whole: Transcript,
  finalDb: Database,
  startDb: Database,
  keys: ReadonlyMap<string, string> = new Map(),
  charging: EndStateCharging = {},
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
  const source = (id: string) => {
    const [, group, index] = /^expected\.(database|user_assertions)\[(\d+)\]$/.exec(id) ?? [];
    const items = group === 'database' ? expected.database : expected.userAssertions;
    return index === undefined ? undefined : items?.[Number(index)];
  };
  chargeStates(
    listed,
    { required: expected.requiredActions, policyOf, only, source },
    whole,
    charging,
  );
  // What could not be carried is never held: unclear, for a person to read.
  const notChecked = (expected.notChecked ?? []).map((what, i): Finding => ({
    id: `expected.not_checked[${i}]`,
    policy: undefined,
    passed: false,
    unclear: true,
    detail: `Not checked: ${what}`,
  }));
  listed.push(...notChecked);
  const end = expected.endState;
  if (!end) return graded(listed, expected.gradedBy, false);
  const id = 'expected.end_state';
  let first: EndStateDifference | undefined;
  const verdict = bounded(() => {
    const differences = endStateDifferences(end, whole.changes, startDb, keys);
    first = differences[0];
    return endStateVerdict(end, differences);
  });
  // Named for it, else charged by the row that ends wrong, else the scenario's only policy.
  const unmet = new Set(
    listed
      .filter((f) => !f.passed && f.id.startsWith('expected.required_actions'))
      .map((f) => f.id),
  );
  const policy =
    expected.attributions?.[id] ??
    (first &&
      endStatePolicy(first, whole, expected.requiredActions, charging, (i) => {
        const action = `expected.required_actions[${i}]`;
        return { policy: policyOf(action), unmet: unmet.has(action) };
      })) ??
    only;
  return graded([...listed, finding(id, policy, verdict)], expected.gradedBy, true);
}

/**
 * A state the scenario expects (a database or user assertion naming no policy) that does not
 * hold is charged to a step the agent missed: the policy of the first required action left unmet.
 * With every step done, to the call that spoiled it: the last call no required action names that
 * changed a table the assertion reads, by its tool's policy. Else to the scenario's only policy,
 * else to the policy of its last required action, the step that should have brought the state
 * about. In place; uncharged when none of these is known.
 */
function chargeStates(
  findings: Finding[],
  scenario: {
    readonly required: readonly string[];
    readonly policyOf: (id: string) => string | undefined;
    readonly only: string | undefined;
    readonly source: (id: string) => string | undefined;
  },
  whole: Transcript,
  charging: EndStateCharging,
): void {
  const { required, policyOf, only, source } = scenario;
  const steps = required.map((_, i) => {
    const id = `expected.required_actions[${i}]`;
    return { policy: policyOf(id), unmet: findings.some((f) => f.id === id && !f.passed) };
  });
  const charged = steps.filter((a) => a.policy !== undefined);
  const missed = charged.find((a) => a.unmet)?.policy;
  const spoiler = (cel: string) => {
    const tables = new Set([...cel.matchAll(/\bdb\.(\w+)/g)].map((m) => m[1]));
    const call = whole.calls.findLast(
      (c) => !required.includes(c.tool) && c.result?.changes.some((ch) => tables.has(ch.table)),
    );
    return call && charging.toolPolicy?.(call.tool);
  };
  for (const [i, f] of findings.entries()) {
    if (f.passed || f.policy !== undefined || !/^expected\.(database|user_assertions)\[/.test(f.id))
      continue;
    const cel = source(f.id);
    const policy =
      missed ??
      (cel === undefined ? undefined : spoiler(cel)) ??
      only ??
      charged[charged.length - 1]?.policy;
    if (policy !== undefined) findings[i] = { ...f, policy };
  }
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
    if (f.passed || f.unclear || group === undefined || by.includes(group)) return f;
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
function endStateVerdict(expected: EndState, differences: readonly EndStateDifference[]): Verdict {
  const rows = Object.values(expected).reduce((n, table) => n + Object.keys(table).length, 0);
  if (differences.length === 0)
    return pass(
      `The database ends as expected: ${rows === 1 ? '1 row' : `${rows} rows`} changed as listed, and no other.`,
    );
  const shown = differences.slice(0, 8).map((d) => d.text);
  const more = differences.length > 8 ? `; and ${differences.length - 8} more` : '';
  return fail(`The database does not end as expected: ${shown.join('; ')}${more}.`);
}

/** What charging a wrong end to a policy may use of the project (`endStateCharging`). */
export interface EndStateCharging {
  /** Each table's writers: the tools whose effects change its rows. */
  readonly writers?: ReadonlyMap<string, readonly string[]>;
  /** The policy a call of the tool answers to (policies.yaml `tools:`). */
  readonly toolPolicy?: (tool: string) => string | undefined;
}

/** What charging a wrong end may use of a project: its tools' effects and its policies' links. */
export function endStateCharging(
  model: Pick<ProjectModel, 'tools' | 'policies'>,
): EndStateCharging {
  const writers = new Map<string, string[]>();
  for (const tool of model.tools)
    for (const effect of tool.effects) {
      const list = writers.get(effect.table) ?? [];
      if (!list.includes(tool.name)) list.push(tool.name);
      writers.set(effect.table, list);
    }
  return { writers, toolPolicy: (tool) => policyOfTool(tool, model.policies) };
}

/**
 * The policy a wrong end is charged to, where the scenario names none for it. The first row that
 * ends wrong was changed by a call: the policy of the first required action of that call's tool,
 * else the policy that tool answers to. No call changed it: the policy of the first required
 * action left unmet of a tool that writes its table, else of the first such action met. Undefined
 * when none of these is known.
 */
function endStatePolicy(
  first: EndStateDifference,
  whole: Transcript,
  required: readonly string[],
  charging: EndStateCharging,
  action: (index: number) => { readonly policy: string | undefined; readonly unmet: boolean },
): string | undefined {
  const chargedTo = (fits: (tool: string, unmet: boolean) => boolean) => {
    for (const [i, tool] of required.entries()) {
      const { policy, unmet } = action(i);
      if (policy !== undefined && fits(tool, unmet)) return policy;
    }
    return undefined;
  };
  const changed = whole.calls.find((c) =>
    c.result?.changes.some((ch) => ch.table === first.table && ch.key === first.key),
  );
  if (changed)
    return chargedTo((tool) => tool === changed.tool) ?? charging.toolPolicy?.(changed.tool);
  const tools = charging.writers?.get(first.table) ?? [];
  return (
    chargedTo((tool, unmet) => unmet && tools.includes(tool)) ??
    chargedTo((tool) => tools.includes(tool))
  );
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
  // What the scenario is not graded by (`graded_by`) fails no agent, idle or not.
  const failing = findings
    .filter((f) => findingState(f) === 'broken' || findingState(f) === 'scenario')
    .map((f) => f.id);
  if (failing.length > 0)
    return { passes: false, detail: `An agent that does nothing fails ${failing.join(', ')}.` };
  const judged = scenario.expected.gradedBy?.includes('assertions') === true;
  if (judged && (scenario.expected.assertions ?? []).length > 0)
    return {
      passes: false,
      detail:
        'Only the judge model’s opinion of its assertions (graded_by: assertions) can fail an agent that does nothing.',
    };
  const graded = findings.filter((f) => findingState(f) !== 'ungraded');
  if (graded.length === 0)
    return {
      passes: true,
      detail:
        'Nothing the scenario is graded by (graded_by) can fail, so any agent passes it, even one that does nothing.',
    };
  return {
    passes: true,
    detail: `Every expectation it is graded by (${graded.map((f) => f.id).join(', ')}) holds when the agent calls no tool and the database stays as it started, so the scenario cannot tell a working agent from one that does nothing.`,
  };
}
