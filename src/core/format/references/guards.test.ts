import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkGuards } from './guards.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));
const MESSAGE = '        message: Verify the customer first.\n';

describe('checkGuards', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkGuards, project), project.name).toEqual([]);
  });

  it('points at the name of a guarded tool that tools.yaml does not define', () => {
    const project = miniWith('rules.yaml', '  refund_order:\n', '  refund_ordr:\n');
    expect(runChecker(checkGuards, project)).toEqual([
      'rules.yaml:2:3 "refund_ordr" error unknown-tool: Unknown tool "refund_ordr". Did you mean "refund_order"?',
    ]);
  });

  it('checks no guarded tool against a tools.yaml that could not be read', () => {
    const project = miniProject({
      'tools.yaml': 'tools: [',
      'rules.yaml': miniWith('rules.yaml', '  refund_order:\n', '  refund_ordr:\n').files[
        'rules.yaml'
      ],
    });
    expect(runChecker(checkGuards, project)).toEqual([]);
  });

  it("points at a rule's policy that policies.yaml does not define", () => {
    const project = miniWith('rules.yaml', 'policy: verify-identity', 'policy: verify-identiti');
    expect(runChecker(checkGuards, project)).toEqual([
      'rules.yaml:5:17 "verify-identiti" error unknown-policy: Unknown policy "verify-identiti". Did you mean "verify-identity"?',
    ]);
  });

  it('points into a "when" at the CEL problem', () => {
    const project = miniWith(
      'rules.yaml',
      'o.days_since_delivery > 30',
      'o.days_since_delivery > ',
    );
    expect(runChecker(checkGuards, project)).toEqual([
      'rules.yaml:13:84 ")" error cel: CEL: Unexpected ")".',
    ]);
  });

  it('notes a forbid without a message, unless the dialogue ends', () => {
    expect(runChecker(checkGuards, miniWith('rules.yaml', MESSAGE, ''))).toEqual([
      'rules.yaml:6:19 "forbid" info missing-message: This rule forbids the call but gives no "message": the agent will only hear that the call was blocked.',
    ]);
    const ends = miniWith(
      'rules.yaml',
      `        fallback: ask_user\n${MESSAGE}`,
      '        fallback: end\n',
    );
    expect(runChecker(checkGuards, ends)).toEqual([]);
  });
});
