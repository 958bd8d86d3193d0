import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { appendToTopLevelSequence } from './yamlEdit.ts';

const ITEM = { id: 'new-one', text: 'New.', tools: ['a', 'b'], source: { line: 3 } };

describe('appendToTopLevelSequence', () => {
  it('appends after the last item and keeps every other byte', () => {
    const text =
      '# head\npolicies:\n  - id: a  # first\n    text: A.\n\n# between\nrelations: []\n';
    const edited = appendToTopLevelSequence(text, 'policies', [ITEM]) ?? '';
    expect(edited).toBe(
      '# head\npolicies:\n  - id: a  # first\n    text: A.\n  - id: new-one\n    text: New.\n    tools: [a, b]\n    source: { line: 3 }\n\n# between\nrelations: []\n',
    );
  });

  it('turns an empty flow list into a block list and adds a missing key', () => {
    expect(appendToTopLevelSequence('policies: [] # none\nx: 1\n', 'policies', [{ id: 'a' }])).toBe(
      'policies: # none\n  - id: a\nx: 1\n',
    );
    expect(appendToTopLevelSequence('policies:\nx: 1\n', 'policies', [{ id: 'a' }])).toBe(
      'policies:\n  - id: a\nx: 1\n',
    );
    expect(appendToTopLevelSequence('# only a comment', 'policies', [{ id: 'a' }])).toBe(
      '# only a comment\npolicies:\n  - id: a\n',
    );
  });

  it('refuses what it cannot edit safely', () => {
    expect(appendToTopLevelSequence('policies: [', 'policies', [ITEM])).toBeUndefined();
    expect(appendToTopLevelSequence('policies: 3\n', 'policies', [ITEM])).toBeUndefined();
    expect(appendToTopLevelSequence('- a\n', 'policies', [ITEM])).toBeUndefined();
  });

  it('always yields YAML whose list gained exactly the new items', () => {
    const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean());
    const item = fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), scalar, {
      minKeys: 1,
      maxKeys: 3,
    });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 4 }),
        fc.array(item, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (before, added, comment) => {
          const base =
            `${comment ? '# c\n' : ''}policies:\n${before.length === 0 ? '  []' : ''}\n`.replace(
              ':\n  []',
              ': []',
            );
          const start =
            before.length === 0 ? base : (appendToTopLevelSequence(base, 'policies', before) ?? '');
          const edited = appendToTopLevelSequence(start, 'policies', added);
          expect(edited).toBeDefined();
          const value = parse(edited ?? '') as { policies: unknown[] };
          expect(value.policies).toEqual([...before, ...added]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
