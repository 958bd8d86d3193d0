import { describe, expect, it } from 'vitest';
import { A, U, dialogue, refusedBy } from '../testing/dialogues.ts';
import type { Database, Finding, SimScenario } from './events.ts';
import { checkExpectations, passesWithoutAgent } from './expectations.ts';
import {
  cancelChange,
  cancelledRow,
  finalDb,
  renamed,
  scenario,
  startDb,
} from './expectations.fixtures.ts';
import { dialogueVerdict } from './judging.ts';

describe('checkExpectations', () => {
  const stillActive = 'db.reservations.exists(r, r.id == "ABC123" && r.status == "active")';
  const cancelled = dialogue([
    U('Cancel ABC123'),
    A(
      'Your reservation   is CANCELLED.',
      { tool: 'get_reservation', ok: false, result: 'Not found' },
      { tool: 'cancel', changes: [cancelChange, renamed] },
    ),
  ]);

  it('judges the end state field by field, names every unasked change, and charges its policy', () => {
    const keys = new Map([
      ['reservations', 'id'],
      ['users', 'id'],
    ]);
    const endState = { reservations: { ABC123: { status: 'cancelled' } } };
    const found = (
      expected: Partial<SimScenario['expected']>,
      transcript = cancelled,
    ): Finding | undefined =>
      checkExpectations(scenario(expected), transcript, finalDb, startDb, keys).find(
        (f) => f.id === 'expected.end_state',
      );
    // The cancellation was asked for; renaming the user was not.
    expect(found({ endState })).toMatchObject({
      passed: false,
      policy: 'refund-window',
      detail:
        'The database does not end as expected: users u1 changed (name), where no change was expected.',
    });
    const both = { ...endState, users: { u1: { name: 'Bo' } } };
    expect(found({ endState: both })).toMatchObject({ passed: true });
    // An agent that does nothing leaves the reservation active.
    expect(found({ endState }, dialogue([]))?.detail).toBe(
      'The database does not end as expected: reservations ABC123: status is "active" where "cancelled" was expected.',
    );
    expect(found({})).toBeUndefined();
  });

  it('judges a database assertion over the final database, with a field-level account', () => {
    const [held] = checkExpectations(
      scenario({ database: [stillActive] }),
      dialogue([]),
      startDb,
      startDb,
    );
    expect(held).toMatchObject({
      id: 'expected.database[0]',
      policy: 'refund-window',
      passed: true,
    });
    const [broken] = checkExpectations(
      scenario({ database: [stillActive] }),
      cancelled,
      finalDb,
      startDb,
    );
    expect(broken).toMatchObject({ passed: false });
    // Only the tables the assertion reads: the users change is left out.
    expect(broken?.detail).toBe(
      `Does not hold at the end: ${stillActive}. Changes during the dialogue: reservations ABC123: status "active" → "cancelled".`,
    );
  });

  it('says when nothing changed and the assertion was already false at the start', () => {
    const wrong = 'db.reservations.size() == 2';
    const [found] = checkExpectations(
      scenario({ database: [wrong] }),
      dialogue([]),
      startDb,
      startDb,
    );
    expect(found?.detail).toBe(
      `Does not hold at the end: ${wrong}. No row of reservations changed during the dialogue. It did not hold at the start either: check the starting rows.`,
    );
  });

  it('fails an assertion that cannot be evaluated, and blames the scenario', () => {
    const findings = checkExpectations(
      scenario({
        database: ['db.reservations.size(', 'db.nope.size() == 0', 'db.reservations.size()'],
      }),
      dialogue([]),
      startDb,
      startDb,
    );
    expect(findings.map((f) => f.passed)).toEqual([false, false, false]);
    expect(findings[0]?.detail).toMatch(/^The assertion is not valid CEL/);
    expect(findings[1]?.detail).toBe(
      'The assertion could not be evaluated (No such key: nope). This is a fault of the scenario, not the agent.',
    );
    expect(findings[2]?.detail).toMatch(/^The assertion gave 1, not true or false\./);
  });

  it('requires each required action to have run, and says why one did not', () => {
    const findings = checkExpectations(
      scenario({ requiredActions: ['cancel', 'get_reservation', 'refund'] }),
      cancelled,
      finalDb,
      startDb,
    );
    expect(findings.map((f) => [f.id, f.passed])).toEqual([
      ['expected.required_actions[0]', true],
      ['expected.required_actions[1]', false],
      ['expected.required_actions[2]', false],
    ]);
    expect(findings[1]).toMatchObject({
      turn: 1,
      detail:
        'The agent called get_reservation once but it never ran: in its 1st reply, it failed (Not found).',
    });
    expect(findings[2]?.detail).toBe('The agent never called refund.');
    const refused = dialogue([
      A('', { tool: 'refund', ...refusedBy('refund-window', 'Too late.') }),
    ]);
    const [blocked] = checkExpectations(
      scenario({ requiredActions: ['refund'] }),
      refused,
      startDb,
      startDb,
    );
    expect(blocked?.detail).toBe(
      'The agent called refund once but it never ran: in its 1st reply, rule "refund-window" refused it (Too late.).',
    );
  });

  it('fails a forbidden action that ran, but not one a guard refused', () => {
    const [ran] = checkExpectations(
      scenario({ forbiddenActions: ['cancel'] }),
      cancelled,
      finalDb,
      startDb,
    );
    expect(ran).toMatchObject({
      passed: false,
      turn: 1,
      detail: 'cancel ran in the agent’s 1st reply: cancel({}), changing 2 row(s).',
    });
    const refused = dialogue([A('', { tool: 'cancel', ...refusedBy('no-late', 'Too late.') })]);
    const [stopped] = checkExpectations(
      scenario({ forbiddenActions: ['cancel'] }),
      refused,
      startDb,
      startDb,
    );
    expect(stopped).toMatchObject({ passed: true });
    expect(stopped?.detail).toBe(
      'cancel never ran: in the agent’s 1st reply, rule "no-late" refused it (Too late.). The attempt is reported under rule "no-late".',
    );
  });

  it('matches phrases as case-insensitive text (spaces loose) or as /regular expressions/', () => {
    const findings = checkExpectations(
      scenario({
        mustSay: ['reservation is cancelled', '/cancel+ed\\b/', 'refund'],
        mustNotSay: ['CANCELLED', '/[/'],
      }),
      cancelled,
      finalDb,
      startDb,
    );
    expect(findings.map((f) => [f.id, f.passed])).toEqual([
      ['expected.must_say[0]', true],
      ['expected.must_say[1]', true],
      ['expected.must_say[2]', false],
      ['expected.must_not_say[0]', false],
      ['expected.must_not_say[1]', true],
    ]);
    expect(findings[0]?.detail).toBe(
      'The agent said it in its 1st reply: "reservation is CANCELLED".',
    );
    expect(findings[2]?.detail).toBe('No agent message matches the phrase "refund".');
    expect(findings[3]).toMatchObject({
      turn: 1,
      detail: 'In its 1st reply the agent said "CANCELLED", which matches the phrase "CANCELLED".',
    });
    expect(findings[4]?.detail).toMatch(/^Skipped: /);
  });

  it('reads commas in the agent’s words as tau2-bench does: a phrase is said with or without them', () => {
    const priced = dialogue([
      U('What do I owe?'),
      A('The total is $1,628.50 for Paris, Lyon and Nice,Cannes.'),
    ]);
    const findings = checkExpectations(
      scenario({
        mustSay: ['1628.50', 'paris lyon', 'Nice Cannes', '1,628', '16,28', '1 628'],
        mustNotSay: ['$1628'],
      }),
      priced,
      startDb,
      startDb,
    );
    expect(findings.map((f) => [f.id, f.passed])).toEqual([
      ['expected.must_say[0]', true],
      ['expected.must_say[1]', true],
      // tau2 drops commas, it does not read them as spaces: "NiceCannes" says no "Nice Cannes".
      ['expected.must_say[2]', false],
      ['expected.must_say[3]', true],
      // A comma the phrase writes must be said where it stands; a space is not a comma.
      ['expected.must_say[4]', false],
      ['expected.must_say[5]', false],
      ['expected.must_not_say[0]', false],
    ]);
    expect(findings[0]?.detail).toBe('The agent said it in its 1st reply: "1,628.50".');
  });

  it('ties each expectation to the policy it names, else to the scenario’s only policy', () => {
    const two = checkExpectations(
      scenario({ requiredActions: ['cancel'] }, ['a', 'b']),
      cancelled,
      finalDb,
      startDb,
    );
    expect(two[0]?.policy).toBeUndefined();
    const one = checkExpectations(
      scenario({ requiredActions: ['cancel'] }),
      cancelled,
      finalDb,
      startDb,
    );
    expect(one[0]?.policy).toBe('refund-window');
    const named = checkExpectations(
      scenario(
        {
          requiredActions: ['cancel', 'get_user'],
          mustSay: ['sorry'],
          attributions: { 'expected.required_actions[1]': 'b', 'expected.must_say[0]': 'a' },
        },
        ['a', 'b'],
      ),
      cancelled,
      finalDb,
      startDb,
    );
    expect(named.map((f) => [f.id, f.policy])).toEqual([
      ['expected.required_actions[0]', undefined],
      ['expected.required_actions[1]', 'b'],
      ['expected.must_say[0]', 'a'],
    ]);
  });
});

describe('checkExpectations: graded_by', () => {
  const transcript = dialogue([
    U('Cancel ABC123'),
    A('Done.', { tool: 'cancel', changes: [cancelChange] }),
  ]);
  const keys = new Map([
    ['reservations', 'id'],
    ['users', 'id'],
  ]);
  const expected = {
    requiredActions: ['get_reservation', 'cancel'],
    mustSay: ['refund of $420.50'],
    endState: { reservations: { ABC123: { status: 'cancelled' } } },
  };
  const after: Database = { ...startDb, reservations: [cancelledRow] };
  const judged = (gradedBy?: SimScenario['expected']['gradedBy'], more = {}) =>
    checkExpectations(
      scenario({ ...expected, ...more, ...(gradedBy && { gradedBy }) }),
      transcript,
      after,
      startDb,
      keys,
    ).map((f) => [f.id, f.passed, f.ungraded === true, f.fault ?? null]);

  it('grades by every expectation when it is left out', () => {
    expect(judged()).toEqual([
      ['expected.required_actions[0]', false, false, null],
      ['expected.required_actions[1]', true, false, null],
      ['expected.must_say[0]', false, false, null],
      ['expected.end_state', true, false, null],
    ]);
  });

  it('keeps a failure of what the scenario is not graded by, marked and named, out of the verdict', () => {
    expect(judged(['end_state'])).toEqual([
      ['expected.required_actions[0]', false, true, null],
      ['expected.required_actions[1]', true, false, null],
      ['expected.must_say[0]', false, true, null],
      ['expected.end_state', true, false, null],
    ]);
    const findings = checkExpectations(
      scenario({ ...expected, gradedBy: ['end_state'] }),
      transcript,
      after,
      startDb,
      keys,
    );
    expect(findings[0]?.detail).toBe(
      'Not graded (the scenario is graded by end_state): The agent never called get_reservation.',
    );
    expect(dialogueVerdict(findings, 'user-done')).toBe('pass');
    expect(
      dialogueVerdict(
        checkExpectations(scenario(expected), transcript, after, startDb, keys),
        'user-done',
      ),
    ).toBe('fail');
  });

  it('cannot grade by an end state the scenario does not give: the scenario’s fault, never a pass', () => {
    const { endState: _none, ...withoutEnd } = expected;
    const findings = checkExpectations(
      scenario({ ...withoutEnd, gradedBy: ['end_state'] }),
      transcript,
      after,
      startDb,
      keys,
    );
    expect(findings.at(-1)).toMatchObject({ id: 'expected.end_state', fault: 'scenario' });
    expect(dialogueVerdict(findings, 'user-done')).toBe('error');
  });
});

describe('dialogueVerdict', () => {
  const failed: Finding = { id: 'x', policy: 'p', passed: false, detail: '' };
  const passed: Finding = { ...failed, passed: true };

  it('makes an outside ending an error, even when findings failed', () => {
    for (const ending of [
      'time-limit',
      'provider-error',
      'scenario-error',
      'user-error',
      'cancelled',
      'budget',
    ] as const)
      expect(dialogueVerdict([failed], ending)).toBe('error');
  });

  it('fails the agent for its own broken output, and makes a scenario’s fault an error', () => {
    expect(dialogueVerdict([passed], 'agent-error')).toBe('fail');
    expect(dialogueVerdict([failed, { ...failed, fault: 'scenario' }], 'user-done')).toBe('error');
    expect(dialogueVerdict([passed, { ...failed, unclear: true }], 'user-done')).toBe('pass');
  });

  it('fails on any failed finding after a normal ending, and passes otherwise', () => {
    expect(dialogueVerdict([passed, failed], 'user-done')).toBe('fail');
    expect(dialogueVerdict([passed], 'guard-end')).toBe('pass');
    expect(dialogueVerdict([], 'max-turns')).toBe('pass');
  });
});

describe('passesWithoutAgent', () => {
  it('counts only what the scenario is graded by: a required action outside graded_by fails no one', () => {
    const base = {
      requiredActions: ['cancel'],
      endState: { reservations: {} },
    };
    // Graded by the end state alone, which an idle agent keeps: it passes, whatever it skips.
    const byEnd = passesWithoutAgent(scenario({ ...base, gradedBy: ['end_state'] }), startDb);
    expect(byEnd.passes).toBe(true);
    expect(byEnd.detail).toMatch(/graded by \(expected\.end_state\) holds/);
    // Graded by its assertions too: only the judge can fail it, which the baseline cannot know.
    const byJudge = passesWithoutAgent(
      scenario({
        ...base,
        assertions: [{ text: 'The agent cancels ABC123.' }],
        gradedBy: ['end_state', 'assertions'],
      }),
      startDb,
    );
    expect(byJudge.passes).toBe(false);
    expect(byJudge.detail).toMatch(/judge model/);
    // Graded by nothing: any agent passes.
    expect(passesWithoutAgent(scenario({ ...base, gradedBy: [] }), startDb).passes).toBe(true);
    // Graded by everything (no graded_by): the missing call fails an idle agent.
    expect(passesWithoutAgent(scenario(base), startDb).passes).toBe(false);
  });

  it('flags a scenario whose expectations only say the status stays active', () => {
    const idle = passesWithoutAgent(
      scenario({
        database: ['db.reservations.all(r, r.status == "active")'],
        forbiddenActions: ['cancel'],
      }),
      startDb,
    );
    expect(idle.passes).toBe(true);
    expect(idle.detail).toMatch(
      /expected\.database\[0\], expected\.forbidden_actions\[0\]\) holds when the agent calls no tool/,
    );
  });

  it('flags a scenario that expects nothing', () => {
    expect(passesWithoutAgent(scenario({}), startDb)).toEqual({
      passes: true,
      detail: 'The scenario expects nothing, so any agent passes it, even one that does nothing.',
    });
  });

  it('clears a scenario that needs the agent to act or speak', () => {
    const acts = passesWithoutAgent(
      scenario({
        database: ['db.reservations.all(r, r.status == "active")'],
        requiredActions: ['get_reservation'],
        mustSay: ['24 hours'],
      }),
      startDb,
    );
    expect(acts).toEqual({
      passes: false,
      detail:
        'An agent that does nothing fails expected.required_actions[0], expected.must_say[0].',
    });
  });
});
