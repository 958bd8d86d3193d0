import { describe, expect, it } from 'vitest';
import { completionsAt } from './completion.ts';
import { checkKindHover } from './hover.ts';
import { miniProject } from '../testing/miniProject.ts';
import { parseProject } from '../format/parseProject.ts';

const RULES = `checks:
  - id: facts
    policy: p
    kind: grounded
    facts: [amounts, `;

describe('check kinds in the editor', () => {
  it('says what a check kind verifies when the pointer rests on it, and only there', () => {
    const at = RULES.indexOf('grounded') + 3;
    expect(checkKindHover(RULES, at)).toMatch(
      /^\*\*grounded\*\* · check\n\nEvery amount, id, date/,
    );
    // The same word as a check's id or policy is not its kind.
    expect(checkKindHover('checks:\n  - id: grounded\n', 18)).toBeUndefined();
    expect(checkKindHover(RULES, RULES.indexOf('amounts') + 2)).toBeUndefined();
  });

  it('offers the new kinds, and the kinds of fact inside facts: [...]', () => {
    const { model } = parseProject(miniProject());
    const kinds = completionsAt(model, 'rules.yaml', 'checks:\n  - kind: ', 19).map((c) => c.label);
    expect(kinds).toEqual(
      expect.arrayContaining(['grounded', 'silent_call', 'wait_for_result', 'transfer_only_when']),
    );
    const facts = completionsAt(model, 'rules.yaml', RULES, RULES.length).map((c) => c.label);
    expect(facts).toEqual(['amounts', 'ids', 'dates', 'numbers']);
  });
});
