import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkRuleIds } from './ruleIds.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));

describe('checkRuleIds', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkRuleIds, project), project.name).toEqual([]);
  });

  it('points at the second guard rule of one id', () => {
    const project = miniWith('rules.yaml', 'id: refund-late', 'id: refund-after-identity');
    expect(runChecker(checkRuleIds, project)).toEqual([
      'rules.yaml:10:13 "refund-after-identity" error duplicate-id: The rule id "refund-after-identity" is used twice; ids must be unique.',
    ]);
  });

  it('points at a check whose id a guard rule already has', () => {
    const project = miniWith('rules.yaml', 'id: confirm-refund', 'id: refund-late');
    expect(runChecker(checkRuleIds, project)).toEqual([
      'rules.yaml:16:9 "refund-late" error duplicate-id: The rule id "refund-late" is used twice; ids must be unique.',
    ]);
  });
});
