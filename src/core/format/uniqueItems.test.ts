import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_UNIQUE_ITEMS, mentionsUniqueItems, uniqueItemsProblem } from './uniqueItems.ts';

/** The longest list anywhere in a value. */
function longestList(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(longestList));
  if (typeof value === 'object' && value !== null)
    return Math.max(0, ...Object.values(value).map(longestList));
  return 0;
}

const SAYS_UNIQUE = { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } };

describe('uniqueItemsProblem', () => {
  it('names a list past the limit wherever it is, and only under a schema that says uniqueItems', () => {
    const long = Array.from({ length: MAX_UNIQUE_ITEMS + 1 }, (_, i) => ({ i }));
    expect(uniqueItemsProblem(SAYS_UNIQUE, { a: { b: [1, long] } })).toBe(
      '"a.b[1]" has 1,001 items, more than the 1,000 a list whose items must be unique is checked for',
    );
    expect(uniqueItemsProblem({ type: 'array' }, long)).toBeUndefined();
    expect(uniqueItemsProblem(SAYS_UNIQUE, long.slice(1))).toBeUndefined();
  });

  it('finds uniqueItems: true anywhere in a schema, and only true', () => {
    expect(mentionsUniqueItems(SAYS_UNIQUE)).toBe(true);
    expect(mentionsUniqueItems({ items: [{ uniqueItems: false }] })).toBe(false);
    expect(mentionsUniqueItems({ anyOf: [{}, { items: { uniqueItems: true } }] })).toBe(true);
  });

  it('refuses exactly the values with a list longer than the limit', () => {
    const limit = MAX_UNIQUE_ITEMS;
    const list = (item: fc.Arbitrary<unknown>) =>
      fc.oneof(
        fc.array(item, { maxLength: 3 }),
        fc
          .integer({ min: limit - 1, max: limit + 1 })
          .map((n) => Array.from({ length: n }, () => 0)),
      );
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        list(tie('v')),
        fc.dictionary(fc.string({ maxLength: 3 }), tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        const problem = uniqueItemsProblem(SAYS_UNIQUE, v);
        expect(problem !== undefined).toBe(longestList(v) > limit);
      }),
      { numRuns: 300 },
    );
  });
});
