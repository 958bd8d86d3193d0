import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MINI_FILES } from '../testing/miniProject.ts';
import { parseProject } from './parseProject.ts';
import { guardRuleIdSpan } from './ruleSpan.ts';

// Few names, so rules often share an id.
const ID = fc.oneof(fc.constantFrom('a', 'b'), fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/));

/** A rules.yaml of `tools` guards, each rule written in one of the ways YAML allows. */
function rulesYaml(tools: readonly (readonly { id: string; style: number }[])[]): string {
  const lines = ['guards:'];
  tools.forEach((rules, t) => {
    lines.push(`  tool_${t}:`, '    rules:');
    for (const { id, style } of rules) {
      if (style === 0) lines.push(`      - id: ${id}`, '        decision: forbid');
      else if (style === 1) lines.push(`      - decision: forbid`, `        id: '${id}'`);
      else lines.push(`      - { policy: p, id: "${id}" }`);
    }
  });
  return `${lines.join('\n')}\n`;
}

describe('guardRuleIdSpan', () => {
  it('finds a rule of the mini project where the whole-project parse does', () => {
    const text = MINI_FILES['rules.yaml'];
    const parsed = parseProject({ name: 'Mini', files: MINI_FILES });
    for (const rule of parsed.model.guards.flatMap((g) => g.rules)) {
      const expected = parsed.files['rules.yaml'].spanOf([...rule.path, 'id']);
      expect(guardRuleIdSpan(text, rule.id)).toEqual(expected);
    }
  });

  it('says nothing for an unknown id, a text that does not read, or no guards', () => {
    expect(guardRuleIdSpan(MINI_FILES['rules.yaml'], 'no-such-rule')).toBeUndefined();
    expect(guardRuleIdSpan('guards: [', 'a')).toBeUndefined();
    expect(guardRuleIdSpan('checks: []\n', 'a')).toBeUndefined();
    expect(guardRuleIdSpan('', 'a')).toBeUndefined();
  });

  it('points at the first rule written with the id, however it is written', () => {
    const rule = fc.record({ id: ID, style: fc.integer({ min: 0, max: 2 }) });
    fc.assert(
      fc.property(
        fc.array(fc.array(rule, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (tools, pick) => {
          const all = tools.flat();
          const wanted = all[pick % all.length]?.id ?? '';
          const text = rulesYaml(tools);
          const span = guardRuleIdSpan(text, wanted);
          expect(span && text.slice(span.start, span.end).replace(/['"]/g, '')).toBe(wanted);
          // The first one written: only the keys of the rules before it, and its own, come first.
          const before = text.slice(0, span?.start ?? 0);
          expect(before.match(/\bid: /g)?.length ?? 0).toBe(
            all.findIndex((r) => r.id === wanted) + 1,
          );
        },
      ),
    );
  });
});
