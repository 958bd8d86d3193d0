import { describe, expect, it } from 'vitest';
import { promptCompletions, promptPlaceHover } from './promptPlaces.ts';

const FILE = `scenarios:
  - id: a
    policies: [p]
    persona: x
    goal: y
prompts:
  user_simulator: |-
    You are {{persona}} and want {{goal}}; {{gaol}}.
  policy_judge: |-
    Judge {{policy}} in {{
`;

const at = (needle: string, shift = 0) => FILE.indexOf(needle) + shift;

describe('prompt places in the editor', () => {
  it('offers the template keys under prompts:, and nowhere else', () => {
    const offset = at('  user_simulator') + 2;
    expect(promptCompletions(FILE, offset)?.map((c) => c.label)).toEqual([
      'user_simulator',
      'ask_user',
      'scenario_generator',
      'policy_judge',
      'assertion_judge',
      'attack',
      'guard_draft',
      'relate',
      'extract_policies',
    ]);
    expect(promptCompletions(FILE, at('  - id: a') + 2)).toBeUndefined();
  });

  it('offers the places of the template being written after {{', () => {
    const judge = promptCompletions(FILE, FILE.length - 1);
    expect(judge?.map((c) => c.label)).toEqual(['policy_id', 'policy', 'transcript']);
    const user = promptCompletions(FILE, at('{{goal}}') + 2);
    expect(user?.map((c) => c.label)).toEqual(['persona', 'goal', 'knows', 'unknown']);
    expect(promptCompletions(FILE, at('persona: x') + 9)).toBeUndefined();
  });

  it('says what a place is filled with, and when it is not filled at all', () => {
    expect(promptPlaceHover(FILE, at('{{goal}}') + 3)).toMatch(
      /^`\{\{goal\}\}` · User simulator prompt\n\nFilled with what the customer wants/,
    );
    expect(promptPlaceHover(FILE, at('{{gaol}}') + 3)).toMatch(
      /`\{\{gaol\}\}` is not filled in by the user simulator prompt.*`\{\{goal\}\}`/,
    );
    expect(promptPlaceHover(FILE, at('You are') + 1)).toBeUndefined();
  });
});
