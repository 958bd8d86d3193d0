import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkRelations } from './relations.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));
const BETWEEN = 'between: [verify-identity, refund-window]';

describe('checkRelations', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkRelations, project), project.name).toEqual([]);
  });

  it('points at an end that is not a policy, with a guess', () => {
    const project = miniWith('policies.yaml', BETWEEN, 'between: [verify-identity, refund-windw]');
    expect(runChecker(checkRelations, project)).toEqual([
      'policies.yaml:16:32 "refund-windw" error unknown-policy: Unknown policy "refund-windw". Did you mean "refund-window"?',
    ]);
  });

  it('refuses a policy related to itself', () => {
    const project = miniWith(
      'policies.yaml',
      BETWEEN,
      'between: [verify-identity, verify-identity]',
    );
    expect(runChecker(checkRelations, project)).toEqual([
      'policies.yaml:16:14 "[verify-identity, verify-identity]" error self-relation: A policy cannot relate to itself ("verify-identity").',
    ]);
  });

  it('warns about a pair related twice, in either order', () => {
    const project = miniWith(
      'policies.yaml',
      '    origin: manual\n',
      '    origin: manual\n  - between: [refund-window, verify-identity]\n    weight: 2\n',
    );
    expect(runChecker(checkRelations, project)).toEqual([
      'policies.yaml:19:14 "[refund-window, verify-identity]" warning duplicate-relation: "refund-window" and "verify-identity" are already related above; keep one weight per pair.',
    ]);
  });
});
