import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { buildScenarios } from './buildModel.ts';
import { parseProject } from './parseProject.ts';

const TAU_STYLE = `scenarios:
  - id: tau-style
    goal: Get a refund for order o1.
    expected:
      required_actions:
        - get_user
        - tool: refund_order
          args: { order_id: o1, amount: 12.5 }
          compare_args: [order_id]
        - { tool: refund_order, args: { order_id: o1 } }
      assertions:
        - The agent refunds order o1.
        - { assertion: The agent checks who the customer is first., policy: verify-identity }
`;

describe('scenarios.yaml: grading as tau2-bench grades', () => {
  it('reads args, compare_args and assertions, with no persona or policies, and reports no error', () => {
    const { model, diagnostics } = parseProject(miniProject({ 'scenarios.yaml': TAU_STYLE }));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const [scenario] = model.scenarios;
    expect(scenario).toMatchObject({ id: 'tau-style', policies: [], persona: '' });
    expect(scenario?.expected).toEqual({
      database: [],
      requiredActions: ['get_user', 'refund_order', 'refund_order'],
      forbiddenActions: [],
      mustSay: [],
      mustNotSay: [],
      actionArgs: {
        'expected.required_actions[1]': {
          args: { order_id: 'o1', amount: 12.5 },
          compare: ['order_id'],
        },
        'expected.required_actions[2]': { args: { order_id: 'o1' } },
      },
      assertions: [
        { text: 'The agent refunds order o1.' },
        { text: 'The agent checks who the customer is first.', policy: 'verify-identity' },
      ],
    });
  });

  it('says in words what is wrong with args that are not a mapping', () => {
    const broken = TAU_STYLE.replace('args: { order_id: o1 } }', 'args: [o1] }');
    const { diagnostics } = parseProject(miniProject({ 'scenarios.yaml': broken }));
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'scenarios.yaml', line: 10 });
    expect(errors[0]?.message).toMatch(/args/);
  });

  it('says in words what is wrong with an assertion written with the wrong key', () => {
    const broken = TAU_STYLE.replace(
      '- The agent refunds order o1.',
      '- { text: The agent refunds o1. }',
    );
    const { diagnostics } = parseProject(miniProject({ 'scenarios.yaml': broken }));
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.line, d.message])).toEqual([
      [12, 'Missing assertion: add "assertion:" here.'],
      [12, 'Unknown field "text". Allowed: assertion, policy.'],
    ]);
  });

  it('reads the scenarios of the old forms as before: no args, no assertions', () => {
    const { model, diagnostics } = parseProject(miniProject());
    expect(diagnostics).toEqual([]);
    expect(model.scenarios[0]?.persona).toBe('A patient customer.');
    expect(model.scenarios[0]?.expected).not.toHaveProperty('actionArgs');
    expect(model.scenarios[0]?.expected).not.toHaveProperty('assertions');
    expect(MINI_FILES['scenarios.yaml']).toContain('persona:');
  });

  it('gives the plain and mapping forms of required actions the same names, args or not', () => {
    const tool = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    const item = fc.record({
      tool,
      form: fc.constantFrom('plain', 'mapping', 'args'),
      args: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.jsonValue(), { maxKeys: 3 }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), (items) => {
        const written = items.map(({ tool: t, form, args }) =>
          form === 'plain' ? t : form === 'mapping' ? { tool: t } : { tool: t, args },
        );
        const [scenario] = buildScenarios({
          scenarios: [{ id: 's', goal: 'g', expected: { required_actions: written } }],
        });
        expect(scenario?.expected.requiredActions).toEqual(items.map((i) => i.tool));
        const withArgs = items.flatMap((i, n) =>
          i.form === 'args' ? [[`expected.required_actions[${n}]`, { args: i.args }]] : [],
        );
        expect(scenario?.expected.actionArgs ?? {}).toEqual(Object.fromEntries(withArgs));
      }),
    );
  });
});
