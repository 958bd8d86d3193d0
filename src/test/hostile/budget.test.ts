import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../core/analyze.ts';
import { CEL_STEP_BUDGET } from '../../core/celMeter.ts';
import { structuredValueProblem } from '../../core/format/columnValues.ts';
import { parseProject } from '../../core/format/parseProject.ts';
import type { GuardRule } from '../../core/format/model.ts';
import { decideToolCall, evaluateRule } from '../../core/rules/guards.ts';
import { seedDatabase } from '../../core/sim/database.ts';
import type { SimScenario } from '../../core/sim/events.ts';
import { NOTHING_EXPECTED } from '../../core/sim/events.ts';
import { checkExpectations } from '../../core/sim/expectations.ts';
import { argumentErrors } from '../../core/sim/toolArguments.ts';
import { runTool } from '../../core/sim/toolRuntime.ts';
import { judgeOne, testCheck } from '../../core/testing/checks.ts';
import { A, U, dialogue } from '../../core/testing/dialogues.ts';
import { MINI_FILES, miniProject, miniWith } from '../../core/testing/miniProject.ts';
import { CEL_BOMBS, FOR_EACH_BOMB } from './celBombs.ts';
import { COUNTED_REPEAT, ENDLESS_CONDITION } from './patternInputs.ts';

/** A scenario expecting only `expected` of the dialogue. */
function expecting(expected: Partial<SimScenario['expected']>): SimScenario {
  const nobody = { persona: '', goal: '', knows: [], unknown: [], rows: {} };
  return { id: 's', policies: ['p'], ...nobody, expected: { ...NOTHING_EXPECTED, ...expected } };
}

// Every input here ran for minutes to centuries before the budgets; each must now end with a
// message that names the limit, through the same entry points the page, Play and the CLI call.
// Speed is `npm run bench`'s (cel_ms_budget, regex_ms_counted_repeat); a generous timeout only
// keeps a slow machine from failing a test that is not about time.
const NOW = '2026-05-01T12:00:00Z';
const CEL_LIMIT = new RegExp(
  `stopped after ${CEL_STEP_BUDGET.toLocaleString('en-US')} steps.*nested all/exists/map/filter`,
  'i',
);
const CALL_LIMIT =
  /stopped after 10,000,000 steps, the most one tool call’s preconditions, effects and result together may take/;
const PATTERN_LIMIT = /\/a\{1,1000\}b\/ was too costly to match on this text of 20,000 characters/;

/** The mini project with one guard rule on get_user whose condition is `when`. */
function guarded(when: string) {
  const rule = `  get_user:\n    rules:\n      - id: costly\n        policy: verify-identity\n        decision: forbid\n        when: ${JSON.stringify(when)}\n        message: Never reached.\n`;
  const project = miniProject({
    'rules.yaml': MINI_FILES['rules.yaml'].replace('guards:\n', () => `guards:\n${rule}`),
  });
  return parseProject(project).model;
}

describe('CEL step bombs', () => {
  for (const bomb of CEL_BOMBS) {
    it(`a guard with ${bomb.name} refuses the call, saying the limit`, () => {
      const model = guarded(bomb.condition);
      const decision = decideToolCall(
        model,
        { tool: 'get_user', args: { user_id: 'u1', ...bomb.args() } },
        { db: seedDatabase(model).db, history: [], now: NOW },
      );
      expect(decision.allowed).toBe(false);
      expect(decision.reason).toMatch(CEL_LIMIT);
      expect(decision.trace.at(-1)?.outcome).toBe('failed');
    });
  }

  it('the guards of one call share one budget: rules that each fit refuse the call together', () => {
    const near = 'range(200).all(i, range(200).all(j, i + j >= 0))';
    const alone = guarded(`!(${near})`);
    const context = { db: seedDatabase(alone).db, history: [], now: NOW };
    const call = { tool: 'get_user', args: { user_id: 'u1' } };
    expect(decideToolCall(alone, call, context).allowed).toBe(true);
    const second = {
      ...alone,
      guards: alone.guards.map((g) =>
        g.tool === 'get_user'
          ? { ...g, rules: [...g.rules, { ...(g.rules[0] as GuardRule), id: 'costly-again' }] }
          : g,
      ),
    };
    const refused = decideToolCall(second, call, context);
    expect(refused.allowed).toBe(false);
    expect(refused.trace.map((t) => t.outcome)).toEqual(['no-match', 'failed']);
    expect(refused.reason).toMatch(CEL_LIMIT);
  });

  it('the rule playground’s evaluateRule says the limit for the endless condition', () => {
    const rule = { id: 'endless', when: ENDLESS_CONDITION } as GuardRule;
    const outcome = evaluateRule(rule, { args: {} });
    expect(outcome.outcome).toBe('failed');
    expect(outcome.detail).toMatch(CEL_LIMIT);
    expect(outcome.detail).toMatch(/multiply the work\)\.$/);
  });

  it('a for_each effect whose runs together pass the budget fails the call and changes nothing', () => {
    const project = miniProject({
      'tools.yaml': `${MINI_FILES['tools.yaml']}${FOR_EACH_BOMB.tool}`,
    });
    const { model } = parseProject(project);
    const db = seedDatabase(model).db;
    // 3,000 ids: 10^8 steps, each evaluation a few thousand; 30,000: 10^10.
    for (const count of [3_000, 30_000]) {
      const outcome = runTool(
        model,
        db,
        { tool: 'tag_orders', args: FOR_EACH_BOMB.args(count) },
        { now: NOW },
      );
      expect(outcome.ok).toBe(false);
      expect(outcome.db).toBe(db);
      if (!outcome.ok) expect(outcome.error).toMatch(CALL_LIMIT);
      if (!outcome.ok) expect(outcome.error).not.toContain('.).');
    }
  });

  it('an expectation past the budget is an error of the scenario, never a pass', () => {
    const scenario = expecting({ database: [ENDLESS_CONDITION] });
    const [finding] = checkExpectations(scenario, dialogue([U('Hi'), A('Hello')]), {}, {});
    expect(finding).toMatchObject({ passed: false, fault: 'scenario' });
    expect(finding?.detail).toMatch(CEL_LIMIT);
    expect(finding?.detail).not.toContain('.).');
  });
});

describe('a counted repeat on a long text', () => {
  const { pattern, text } = COUNTED_REPEAT;

  for (const kind of ['must_say', 'must_not_say'] as const) {
    it(`a ${kind} check is an error that says the pattern was too costly`, () => {
      const found = judgeOne(testCheck(kind, { pattern }), dialogue([U('Hi'), A(text())]));
      expect(found).toMatchObject({ passed: false, fault: 'scenario' });
      expect(found.detail).toMatch(PATTERN_LIMIT);
    });
  }

  it('one check shares one budget across the agent’s messages: ten that each fit do not together', () => {
    const short = 'a'.repeat(500); // about 630,000 steps each
    const one = judgeOne(testCheck('must_not_say', { pattern }), dialogue([U('Hi'), A(short)]));
    expect(one.passed).toBe(true);
    const replies = Array.from({ length: 10 }, () => [U('And?'), A(short)]).flat();
    const ten = judgeOne(testCheck('must_not_say', { pattern }), dialogue(replies));
    expect(ten).toMatchObject({ passed: false, fault: 'scenario' });
    expect(ten.detail).toContain('with the texts the same check or value matched before it');
  });

  it('one call’s arguments share one budget across their strings', () => {
    const project = miniProject({
      'tools.yaml': MINI_FILES['tools.yaml'].replace(
        'user_id: { type: string }',
        `user_id: { type: string }\n        notes: { type: array, items: { type: string, pattern: '${pattern}' } }`,
      ),
    });
    const tool = parseProject(project).model.tools.find((t) => t.name === 'get_user');
    if (!tool) throw new Error('no get_user');
    const short = 'a'.repeat(500);
    expect(argumentErrors(tool, { user_id: 'u1', notes: [short] })).toEqual([
      '"notes.0" must match pattern "a{1,1000}b"',
    ]);
    const many = Array.from({ length: 10 }, () => short);
    expect(argumentErrors(tool, { user_id: 'u1', notes: many }).join()).toContain(
      'with the texts the same check or value matched before it',
    );
  });

  it('a say_before_call check is an error that says so', () => {
    const found = judgeOne(
      testCheck('say_before_call', { pattern, tool: 'refund_order' }),
      dialogue([U('Hi'), A(text(), { tool: 'refund_order', args: { order_id: 'o1' } })]),
    );
    expect(found).toMatchObject({ passed: false, fault: 'scenario' });
    expect(found.detail).toMatch(PATTERN_LIMIT);
  });

  it('a column schema’s pattern on a written value says so instead of escaping Ajv', () => {
    const column = {
      name: 'notes',
      type: 'array' as const,
      nullable: false,
      schema: { type: 'array', items: { type: 'string', pattern } },
    };
    expect(structuredValueProblem(column, [text()])).toMatch(PATTERN_LIMIT);
  });

  it('a scenario phrase written /like this/ is an error that says so', () => {
    const scenario = expecting({ mustNotSay: [`/${pattern}/`] });
    const [finding] = checkExpectations(scenario, dialogue([U('Hi'), A(text())]), {}, {});
    expect(finding).toMatchObject({ passed: false, fault: 'scenario' });
    expect(finding?.detail).toMatch(PATTERN_LIMIT);
  });

  it('a matches() guard refuses the call with the message', () => {
    const model = guarded(`args.user_id.matches('${pattern}')`);
    const decision = decideToolCall(
      model,
      { tool: 'get_user', args: { user_id: text() } },
      { db: seedDatabase(model).db, history: [], now: NOW },
    );
    expect(decision.allowed).toBe(false);
    // The match is charged to the guard's CEL budget (a step per four), which it passes first.
    expect(decision.reason).toMatch(CEL_LIMIT);
  });

  it('a tool parameter’s pattern refuses the call instead of escaping Ajv', () => {
    const project = miniProject({
      'tools.yaml': MINI_FILES['tools.yaml'].replace(
        'user_id: { type: string }',
        `user_id: { type: string, pattern: '${pattern}' }`,
      ),
    });
    const { model } = parseProject(project);
    const tool = model.tools.find((t) => t.name === 'get_user');
    if (!tool) throw new Error('no get_user');
    expect(argumentErrors(tool, { user_id: text() }).join()).toMatch(PATTERN_LIMIT);
    const outcome = runTool(
      model,
      seedDatabase(model).db,
      { tool: 'get_user', args: { user_id: text() } },
      { now: NOW },
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(PATTERN_LIMIT);
  });
});

describe('check on a costly pattern', () => {
  const checkWith = (pattern: string) =>
    analyzeProject(
      miniWith(
        'rules.yaml',
        'kind: confirm_before\n    tool: refund_order',
        `kind: must_not_say\n    pattern: ${JSON.stringify(pattern)}`,
      ),
    ).diagnostics.filter((d) => d.code === 'costly-pattern');

  it('warns at the pattern’s line how long an answer it can match within the limit', () => {
    const [found, ...more] = checkWith(COUNTED_REPEAT.pattern);
    expect(more).toEqual([]);
    expect(found).toMatchObject({ file: 'rules.yaml', line: 19, severity: 'warning' });
    expect(found?.message).toMatch(
      /repeats up to 1,000 times.*past about 750 characters, it may pass the matcher's limit of 3,000,000 steps/,
    );
  });

  it('says nothing of an ordinary pattern', () => {
    expect(checkWith('\\b(refund|credit)s?\\b')).toEqual([]);
    expect(checkWith('[a-z]{2,20}@[a-z]+\\.com')).toEqual([]);
  });
});

describe('uniqueItems on a long list of objects', () => {
  it('refuses a column value past the limit before Ajv compares every pair', () => {
    const column = {
      name: 'tags',
      type: 'array' as const,
      nullable: false,
      schema: { type: 'array', uniqueItems: true },
    };
    const tags = Array.from({ length: 60_000 }, (_, i) => ({ i }));
    expect(structuredValueProblem(column, tags)).toBe(
      '"tags" cannot be checked: the list has 60,000 items, more than the 1,000 a list whose items must be unique is checked for.',
    );
    expect(structuredValueProblem(column, tags.slice(0, 1000))).toBeUndefined();
  });

  it('refuses a list past the limit before Ajv compares every pair', () => {
    const project = miniProject({
      'tools.yaml': MINI_FILES['tools.yaml'].replace(
        'user_id: { type: string }',
        'user_id: { type: string }\n        tags: { type: array, uniqueItems: true }',
      ),
    });
    const tool = parseProject(project).model.tools.find((t) => t.name === 'get_user');
    if (!tool) throw new Error('no get_user');
    const tags = Array.from({ length: 60_000 }, (_, i) => ({ i }));
    expect(argumentErrors(tool, { user_id: 'u1', tags })).toEqual([
      '"tags" has 60,000 items, more than the 1,000 a list whose items must be unique is checked for',
    ]);
  });
});
