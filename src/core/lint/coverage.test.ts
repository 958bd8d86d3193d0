import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { judgeOnlyPolicies, policyCoverage } from './coverage.ts';

const BE_POLITE =
  '  - id: be-polite\n    text: Always greet the customer by name.\n    category: tone\n    challenge: 1\nrelations:';

/** The mini project with a third policy, `be-polite`, and `scenarios` in place of its own. */
function withPolite(scenarios: string, rules = MINI_FILES['rules.yaml']) {
  return parseProject(
    miniProject({
      'policies.yaml': MINI_FILES['policies.yaml'].replace('relations:', BE_POLITE),
      'scenarios.yaml': scenarios,
      'rules.yaml': rules,
    }),
  ).model;
}

const scenario = (policies: string, expected: string) =>
  `  - id: s-${policies.replace(/\W+/g, '-')}\n    policies: [${policies}]\n    persona: A customer.\n    goal: Something.\n${expected}`;

describe('policyCoverage', () => {
  it('names the guard rules and checks of the mini project, policy by policy', () => {
    const coverage = policyCoverage(parseProject(miniProject()).model);
    expect([...coverage]).toEqual([
      ['verify-identity', ['guard']],
      ['refund-window', ['guard', 'check', 'expectation']],
    ]);
    expect(judgeOnlyPolicies(coverage)).toEqual([]);
  });

  it('counts an expectation that names the policy, or any of a scenario that tests it alone', () => {
    const alone = withPolite(
      `scenarios:\n${scenario('be-polite', '    expected:\n      must_say: [hello]\n')}`,
    );
    expect(policyCoverage(alone).get('be-polite')).toEqual(['expectation']);

    // With another policy in play, the expectation belongs to no policy: only the judge can
    // say whether be-polite held.
    const shared = withPolite(
      `scenarios:\n${scenario('be-polite, refund-window', '    expected:\n      must_say: [hello]\n')}`,
    );
    expect(policyCoverage(shared).get('be-polite')).toEqual([]);
    expect(policyCoverage(shared).get('refund-window')).toEqual(['guard', 'check']);

    // Unless the expectation names it.
    const named = withPolite(
      `scenarios:\n${scenario('be-polite, refund-window', '    expected:\n      must_say:\n        - { phrase: hello, policy: be-polite }\n')}`,
    );
    expect(policyCoverage(named).get('be-polite')).toEqual(['expectation']);

    // A scenario of its own that expects nothing ties nothing to it either.
    const empty = withPolite(`scenarios:\n${scenario('be-polite', '')}`);
    expect(judgeOnlyPolicies(policyCoverage(empty))).toEqual(['be-polite']);
  });

  it('counts a transcript check and a guard rule naming the policy', () => {
    const rules = `${MINI_FILES['rules.yaml']}  - id: greets\n    policy: be-polite\n    kind: must_say\n    pattern: hello\n`;
    const checked = withPolite(`scenarios:\n${scenario('be-polite', '')}`, rules);
    expect(policyCoverage(checked).get('be-polite')).toEqual(['check']);
    const guarded = withPolite(
      `scenarios:\n${scenario('be-polite', '')}`,
      MINI_FILES['rules.yaml'].replace('policy: verify-identity', 'policy: be-polite'),
    );
    expect(policyCoverage(guarded).get('be-polite')).toEqual(['guard']);
    // A rule that only allows can never charge its policy: no coverage.
    const allowing = withPolite(
      `scenarios:\n${scenario('be-polite', '')}`,
      MINI_FILES['rules.yaml'].replace(
        'checks:',
        '  get_user:\n    rules:\n      - id: greet-first\n        policy: be-polite\n        decision: allow\nchecks:',
      ),
    );
    expect(policyCoverage(allowing).get('be-polite')).toEqual([]);
    expect(policyCoverage(guarded).get('verify-identity')).toEqual([]);
  });
});
