import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../parseProject.ts';
import { miniProject } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkAttack } from './attack.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));

const SCENARIOS = `scenarios:
  - id: late-refund
    policies: [refund-window]
    goal: Get a refund for order o2.
    tags: [adversarial] # kept comment
    tactic: TACTIC
  - id: late-refund-twin
    policies: [refund-window]
    goal: Get a refund for order o1, delivered yesterday.
    tags: [contrastive]
    twin_of: TWIN
`;

function project(tactic: string, twin: string) {
  return miniProject({
    'scenarios.yaml': SCENARIOS.replace('TACTIC', tactic).replace('TWIN', twin),
  });
}

describe('checkAttack', () => {
  it('finds nothing in the mini project, the examples, and a tagged pair that is right', () => {
    for (const p of [miniProject(), ...examples, project('urgency', 'late-refund')])
      expect(runChecker(checkAttack, p), p.name).toEqual([]);
    const errors = parseProject(project('urgency', 'late-refund')).diagnostics.filter(
      (d) => d.severity === 'error',
    );
    expect(errors).toEqual([]);
  });

  it('reads tags, tactic and twin_of into the model', () => {
    const [adversarial, twin] = parseProject(project('urgency', 'late-refund')).model.scenarios;
    expect(adversarial).toMatchObject({ tags: ['adversarial'], tactic: 'urgency' });
    expect(adversarial?.twinOf).toBeUndefined();
    expect(twin).toMatchObject({ tags: ['contrastive'], twinOf: 'late-refund' });
  });

  it('refuses a twin of a scenario that does not exist, with a guess', () => {
    expect(runChecker(checkAttack, project('urgency', 'late-refnd'))).toEqual([
      'scenarios.yaml:11:14 "late-refnd" error unknown-twin: Unknown scenario "late-refnd". Did you mean "late-refund"?',
    ]);
  });

  it('refuses a scenario that is its own twin', () => {
    expect(runChecker(checkAttack, project('urgency', 'late-refund-twin'))).toEqual([
      'scenarios.yaml:11:14 "late-refund-twin" error self-twin: A scenario cannot be its own twin ("late-refund-twin").',
    ]);
  });

  it('warns about a tactic it does not know, listing the known ones', () => {
    expect(runChecker(checkAttack, project('urgencey', 'late-refund'))).toEqual([
      'scenarios.yaml:6:13 "urgencey" warning unknown-tactic: Unknown tactic "urgencey". Did you mean "urgency"? The known tactics are social-engineering, false-authority, split-request, urgency, earlier-approval.',
    ]);
  });

  it('only warns about a tactic written in other words, as any unknown tactic', () => {
    const diagnostics = parseProject(project('Urgency!', 'late-refund')).diagnostics;
    expect(diagnostics.filter((d) => d.file === 'scenarios.yaml').map((d) => d.code)).toEqual([
      'unknown-tactic',
    ]);
  });

  it('lets the schema refuse a tag that is not an id', () => {
    const bad = miniProject({
      'scenarios.yaml': SCENARIOS.replace('[adversarial]', '[Adversarial!]')
        .replace('TACTIC', 'urgency')
        .replace('TWIN', 'late-refund'),
    });
    const codes = parseProject(bad).diagnostics.map((d) => `${d.file}:${d.line} ${d.severity}`);
    expect(codes).toContain('scenarios.yaml:5 error');
  });
});
