import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINI_FILES, miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkPolicies } from './policies.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));

describe('checkPolicies', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkPolicies, project), project.name).toEqual([]);
  });

  it('points at the second use of a policy id', () => {
    const project = miniWith('policies.yaml', 'id: refund-window', 'id: verify-identity');
    expect(runChecker(checkPolicies, project)).toEqual([
      'policies.yaml:9:9 "verify-identity" error duplicate-id: The policy id "verify-identity" is used twice; ids must be unique.',
    ]);
  });

  it('points at a tool that tools.yaml does not define, with a guess', () => {
    const project = miniWith('policies.yaml', 'tools: [get_user]', 'tools: [get_usr]');
    expect(runChecker(checkPolicies, project)).toEqual([
      'policies.yaml:7:13 "get_usr" error unknown-tool: Unknown tool "get_usr". Did you mean "get_user"?',
    ]);
  });

  it('warns about a source line past the end of agent.md', () => {
    const project = miniWith('policies.yaml', 'source: { line: 7 }', 'source: { line: 70 }');
    expect(runChecker(checkPolicies, project)).toEqual([
      'policies.yaml:14:21 "70" warning bad-source: agent.md has 8 lines; line 70 does not exist.',
    ]);
  });

  it('checks no tool names against a tools.yaml that could not be read', () => {
    const project = miniProject({
      'tools.yaml': 'tools: [',
      'policies.yaml': MINI_FILES['policies.yaml'].replace('tools: [get_user]', 'tools: [get_usr]'),
    });
    expect(runChecker(checkPolicies, project)).toEqual([]);
  });
});
