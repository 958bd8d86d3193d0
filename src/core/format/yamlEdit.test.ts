import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { appendToTopLevelSequence, applySplices, lineBreakOf } from './yamlEdit.ts';
import { renderFlow, renderScalar } from './yamlRender.ts';

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

describe('appendToTopLevelSequence, in the style of the file', () => {
  it('keeps Windows line endings', () => {
    expect(
      appendToTopLevelSequence('# c\r\npolicies:\r\n  - id: a\r\n', 'policies', [{ id: 'b' }]),
    ).toBe('# c\r\npolicies:\r\n  - id: a\r\n  - id: b\r\n');
    expect(appendToTopLevelSequence('x: 1\r\n', 'policies', [{ id: 'b' }])).toBe(
      'x: 1\r\npolicies:\r\n  - id: b\r\n',
    );
  });

  it('adds inside a flow list and as one-line maps after one-line maps', () => {
    expect(appendToTopLevelSequence('r: [{a: 1}] # c\n', 'r', [{ a: 2 }])).toBe(
      'r: [{a: 1}, {a: 2}] # c\n',
    );
    expect(appendToTopLevelSequence('r:\n- { a: [x, y] }\n', 'r', [{ a: ['z'] }])).toBe(
      'r:\n- { a: [x, y] }\n- { a: [z] }\n',
    );
  });

  it('writes after the last item, not after comments that close the list', () => {
    const text = 'p:\n  - id: a\n    tools:\n      - x\n    # about a\n# before q\nq: 1\n';
    expect(appendToTopLevelSequence(text, 'p', [{ id: 'b' }])).toBe(
      'p:\n  - id: a\n    tools:\n      - x\n  - id: b\n    # about a\n# before q\nq: 1\n',
    );
  });

  it('turns `key: null` into a list', () => {
    expect(appendToTopLevelSequence('p: null # none\n', 'p', ['a'])).toBe('p: # none\n  - a\n');
  });
});

describe('renderScalar', () => {
  it('quotes only when YAML needs it, single quotes first', () => {
    expect(renderScalar('plain words')).toBe('plain words');
    expect(renderScalar('a: b')).toBe("'a: b'");
    expect(renderScalar("it's # x")).toBe('"it\'s # x"');
    expect(renderScalar('true')).toBe("'true'");
    expect(renderScalar(3)).toBe('3');
    expect(renderScalar('a, b')).toBe('a, b');
    expect(renderScalar('a, b', { flow: true })).toBe("'a, b'");
  });

  it('keeps the style of the scalar it replaces where the value allows it', () => {
    expect(renderScalar('x', { like: 'QUOTE_DOUBLE' })).toBe('"x"');
    expect(renderScalar('two\nlines', { like: 'QUOTE_SINGLE' })).toBe('"two\\nlines"');
    expect(renderScalar('long '.repeat(30).trim(), { like: 'BLOCK_FOLDED', column: 4 })).toMatch(
      /^>-\n {6}long/,
    );
    expect(renderScalar('kept break\n', { like: 'BLOCK_FOLDED' })).toBe('"kept break\\n"');
  });

  it('always writes what reads back', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.constantFrom(
          undefined,
          'PLAIN',
          'QUOTE_SINGLE',
          'QUOTE_DOUBLE',
          'BLOCK_FOLDED',
          'BLOCK_LITERAL',
        ),
        fc.boolean(),
        (value, like, flow) => {
          const written = renderScalar(value, { like: like as never, flow, column: 2 });
          const read = flow
            ? (parse(`[${written}]`) as unknown[])[0]
            : (parse(`k: ${written}`) as { k: unknown }).k;
          expect(read).toBe(value);
        },
      ),
      { numRuns: 500 },
    );
    expect(renderFlow({ between: ['a', 'b: c'], weight: 2 }, false)).toBe(
      "{between: [a, 'b: c'], weight: 2}",
    );
  });
});

describe('applySplices and lineBreakOf', () => {
  it('applies splices given in any order', () => {
    const splices = [
      { start: 0, end: 1, insert: 'A' },
      { start: 4, end: 5, insert: 'E!' },
      { start: 2, end: 2, insert: '-' },
    ];
    expect(applySplices('abcde', splices)).toBe('Ab-cdE!');
    expect(lineBreakOf('a\r\nb')).toBe('\r\n');
    expect(lineBreakOf('a\nb')).toBe('\n');
  });
});
