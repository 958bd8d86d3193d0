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

  it('prefers a policy that writes the tool’s name out to one linked by shared words', () => {
    const named = policyLinks([
      {
        id: 'one-call-at-a-time',
        text: 'Make one tool call at a time.',
        tools: ['toggle_wifi_calling'],
      },
      {
        id: 'turn-wifi-calling-off',
        text: 'If it is ON, guide the user to use toggle_wifi_calling() to turn it off.',
        tools: ['toggle_wifi', 'check_wifi_calling', 'toggle_wifi_calling'],
      },
    ]);
    expect(policyOfTool('toggle_wifi_calling', named)).toBe('turn-wifi-calling-off');
    // A name inside a longer one is not the tool written out.
    expect(policyOfTool('toggle_wifi', named)).toBe('turn-wifi-calling-off');
    expect(
      policyOfTool('toggle_wifi', [
        { id: 'longer', text: 'Use toggle_wifi_calling().', tools: ['toggle_wifi', 'x'] },
        { id: 'plain', text: 'Wi-Fi.', tools: ['toggle_wifi'] },
      ]),
    ).toBe('plain');
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
