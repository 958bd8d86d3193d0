import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkChecks } from './checks.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));

describe('checkChecks', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkChecks, project), project.name).toEqual([]);
  });

  it("points at a check's policy that policies.yaml does not define", () => {
    const project = miniWith(
      'rules.yaml',
      'policy: refund-window\n    kind',
      'policy: refund-windo\n    kind',
    );
    expect(runChecker(checkChecks, project)).toEqual([
      'rules.yaml:17:13 "refund-windo" error unknown-policy: Unknown policy "refund-windo". Did you mean "refund-window"?',
    ]);
  });

  it('points at the kind of a check that lacks a field its kind needs', () => {
    const project = miniWith('rules.yaml', 'kind: confirm_before', 'kind: max_calls');
    expect(runChecker(checkChecks, project)).toEqual([
      'rules.yaml:18:11 "max_calls" error missing-field: A max_calls check needs "max".',
    ]);
  });

  it('knows what the turn checks need: max for max_calls_per_turn, pattern and tool to say before a call', () => {
    const perTurn = miniWith(
      'rules.yaml',
      'kind: confirm_before\n    tool: refund_order',
      'kind: max_calls_per_turn',
    );
    expect(runChecker(checkChecks, perTurn)).toEqual([
      'rules.yaml:18:11 "max_calls_per_turn" error missing-field: A max_calls_per_turn check needs "max".',
    ]);
    const withMax = miniWith(
      'rules.yaml',
      'kind: confirm_before\n    tool: refund_order',
      'kind: max_calls_per_turn\n    max: 1',
    );
    expect(runChecker(checkChecks, withMax)).toEqual([]);
    const sayBefore = miniWith('rules.yaml', 'kind: confirm_before', 'kind: say_before_call');
    expect(runChecker(checkChecks, sayBefore)).toEqual([
      'rules.yaml:18:11 "say_before_call" error missing-field: A say_before_call check needs "pattern".',
    ]);
    const unknownTool = miniWith(
      'rules.yaml',
      'kind: confirm_before\n    tool: refund_order',
      'kind: say_before_call\n    pattern: refund\n    tool: refund',
    );
    expect(runChecker(checkChecks, unknownTool)).toEqual([
      'rules.yaml:20:11 "refund" error unknown-tool: Unknown tool "refund".',
    ]);
  });

  it('says what the new kinds need, and warns of fields their kind ignores', () => {
    const transfer = miniWith('rules.yaml', 'kind: confirm_before', 'kind: transfer_only_when');
    expect(runChecker(checkChecks, transfer)).toEqual([
      'rules.yaml:18:11 "transfer_only_when" error missing-field: A transfer_only_when check needs "pattern" (what must be said first), "after_refusal: true", or both.',
    ]);
    const empty = miniWith('rules.yaml', 'kind: confirm_before', 'kind: grounded\n    facts: []');
    expect(runChecker(checkChecks, empty)).toEqual([
      'rules.yaml:19:12 "[]" warning empty-check: An empty "facts" list holds no fact to a source, so this check can never fail. Leave it out to check them all.',
    ]);
    const covers = miniWith(
      'rules.yaml',
      'kind: confirm_before',
      'kind: never_call\n    covers: each',
    );
    expect(runChecker(checkChecks, covers)).toEqual([
      'rules.yaml:19:13 "each" warning unused-field: Only a confirm_before check reads "covers"; a never_call check ignores it.',
    ]);
  });

  it('points at a tool that tools.yaml does not define', () => {
    const project = miniWith('rules.yaml', '    tool: refund_order', '    tool: refund');
    expect(runChecker(checkChecks, project)).toEqual([
      'rules.yaml:19:11 "refund" error unknown-tool: Unknown tool "refund".',
    ]);
  });

  it('points at a pattern that is not a regular expression', () => {
    const project = miniWith(
      'rules.yaml',
      'kind: confirm_before\n    tool: refund_order',
      'kind: must_say\n    pattern: "refund ("',
    );
    expect(runChecker(checkChecks, project)).toEqual([
      'rules.yaml:19:14 "\\"refund (\\"" error bad-pattern: This is not a valid regular expression: Invalid regular expression: /refund (/iu: Unterminated group',
    ]);
  });

  it('names the construct of a pattern that needs backtracking: a backreference, a lookahead', () => {
    for (const [pattern, construct] of [
      ['(refund)\\\\1', 'A backreference "\\1" (at character 9) is not supported'],
      ['refund(?! later)', 'A negative lookahead "(?!…)" (at character 7) is not supported'],
    ]) {
      const project = miniWith(
        'rules.yaml',
        'kind: confirm_before\n    tool: refund_order',
        `kind: must_say\n    pattern: "${pattern}"`,
      );
      const [found] = runChecker(checkChecks, project);
      expect(found).toMatch(
        /^rules\.yaml:19:14 .* error unsupported-pattern: This pattern cannot be used: /,
      );
      expect(found).toContain(construct);
    }
  });
});
