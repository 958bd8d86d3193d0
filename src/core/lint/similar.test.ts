import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { similarPairs } from './similar.ts';

/** The obvious quadratic answer: for each set, the earliest set before it that is similar. */
function bruteForce(sets: string[][], threshold: number, minSize: number): [number, number][] {
  const distinct = sets.map((s) => new Set(s));
  const pairs: [number, number][] = [];
  distinct.forEach((x, j) => {
    if (x.size < minSize) return;
    for (let i = 0; i < j; i++) {
      const y = distinct[i] ?? new Set<string>();
      if (y.size < minSize) continue;
      const shared = [...x].filter((w) => y.has(w)).length;
      if (shared / (x.size + y.size - shared) >= threshold) {
        pairs.push([j, i]);
        return;
      }
    }
  });
  return pairs;
}

describe('similarPairs', () => {
  it('finds a set written twice with one word changed', () => {
    const sets = [
      'refund only orders delivered within thirty days'.split(' '),
      'verify identity before any change to an order'.split(' '),
      'refund only orders delivered within the last thirty days'.split(' '),
    ];
    expect(similarPairs(sets, 0.75, 4)).toEqual([[2, 0]]);
  });

  it('ignores sets shorter than the minimum, however alike', () => {
    expect(
      similarPairs(
        [
          ['a', 'b'],
          ['a', 'b'],
        ],
        0.75,
        4,
      ),
    ).toEqual([]);
  });

  it('agrees with comparing every pair, on random sets from a small vocabulary', () => {
    const word = fc.constantFrom(...'abcdefghijkl'.split(''));
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 10 }), { maxLength: 40 }),
        fc.constantFrom(0.5, 0.6, 0.75, 0.8, 1),
        fc.integer({ min: 1, max: 5 }),
        (sets, threshold, minSize) => {
          expect(similarPairs(sets, threshold, minSize)).toEqual(
            bruteForce(sets, threshold, minSize),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('similarPairs on templated text', () => {
  it('pairs every copy of a template with the first, and only truly similar pairs', () => {
    const template = 'refund an order only to the payment method it was paid with case';
    const sets = Array.from({ length: 3000 }, (_, i) => [...template.split(' '), `n${i}`]);
    const pairs = similarPairs(sets, 0.75, 4);
    expect(pairs).toHaveLength(2999);
    expect(pairs.every(([later, earlier]) => earlier === 0 && later > 0)).toBe(true);
  });
});
