import { describe, expect, it } from 'vitest';
import { policyLinks, policyOfTool, withPoliciesInPlay } from './inPlay.ts';

const links = policyLinks([
  { id: 'be-kind', text: 'Be kind.' },
  { id: 'refunds', tools: ['refund', 'lookup', 'cancel'] },
  { id: 'refund-window', tools: ['refund'] },
  { id: 'identity', tools: ['lookup'] },
  { id: 'also-identity', tools: ['lookup'] },
]);

describe('policies in play for an imported scenario', () => {
  it('charges a tool to its most particular policy, the earliest on a tie', () => {
    expect(policyOfTool('refund', links)).toBe('refund-window');
    expect(policyOfTool('lookup', links)).toBe('identity');
    expect(policyOfTool('cancel', links)).toBe('refunds');
    expect(policyOfTool('transfer', links)).toBeUndefined();
  });

  it('names each action’s policy and puts those policies in play, in the actions’ order', () => {
    const scenario = {
      id: 'task-1',
      expected: {
        required_actions: ['lookup', { tool: 'refund', args: { id: 'R1' } }, 'transfer'],
        must_say: ['done'],
      },
    };
    expect(withPoliciesInPlay(scenario, links)).toEqual({
      id: 'task-1',
      policies: ['identity', 'refund-window'],
      expected: {
        required_actions: [
          { tool: 'lookup', policy: 'identity' },
          { tool: 'refund', args: { id: 'R1' }, policy: 'refund-window' },
          'transfer',
        ],
        must_say: ['done'],
      },
    });
    // No action any policy governs: the scenario is left as it was.
    const none = { id: 't', expected: { required_actions: ['transfer'] } };
    expect(withPoliciesInPlay(none, links)).toBe(none);
  });
});
