import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandidatePolicy } from './extract.ts';
import { addPoliciesToYaml } from './extract.ts';
import { parseProject } from './format/parseProject.ts';
import { miniProject } from './testing/miniProject.ts';

const BASE = `# by hand
policies:
  - id: greet # keep
    text: Greet the customer.
    category: communication
    challenge: 1
`;

function candidate(id: string, flows?: readonly string[]): CandidatePolicy {
  return {
    id,
    text: `Rule ${id}.`,
    category: 'general',
    challenge: 2,
    tools: [],
    source: { line: 40, endLine: 40 },
    sharesLine: false,
    ...(flows && { flows }),
  };
}

function policiesOf(text: string) {
  const { model, diagnostics } = parseProject(miniProject({ 'policies.yaml': text }));
  return {
    policies: model.policies,
    problems: diagnostics.filter((d) => d.file === 'policies.yaml' && d.severity === 'error'),
  };
}

describe('a policy’s flows', () => {
  it('are written as a list and read back; none written when there are none', () => {
    const text = addPoliciesToYaml(BASE, [
      candidate('both', ['Refunds', 'Address changes']),
      candidate('none', []),
      candidate('absent'),
    ]);
    expect(text.startsWith(BASE)).toBe(true);
    expect(text).toContain('    flows: [Refunds, Address changes]\n');
    const { policies, problems } = policiesOf(text);
    expect(problems).toEqual([]);
    expect(policies.map((p) => [p.id, p.flows])).toEqual([
      ['greet', undefined],
      ['both', ['Refunds', 'Address changes']],
      ['none', undefined],
      ['absent', undefined],
    ]);
  });

  it('read back as written, whatever the flow names', () => {
    const name = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 4 }), (flows) => {
        const text = addPoliciesToYaml(BASE, [candidate('p', flows)]);
        const { policies, problems } = policiesOf(text);
        expect(problems).toEqual([]);
        expect(policies.find((p) => p.id === 'p')?.flows).toEqual(flows);
      }),
      { numRuns: 60 },
    );
  });

  it('an empty name is an error of the schema', () => {
    const { problems } = policiesOf(`${BASE}    flows: [""]\n`);
    expect(problems.map((d) => d.line)).toEqual([7]);
  });
});
