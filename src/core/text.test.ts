import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SUGGESTIONS, aside, closest, editDistance, editDistanceWithin } from './text.ts';

/** Levenshtein by the textbook table, to hold the bounded one to. */
function textbook(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = table[i] ?? [];
      const above = table[i - 1] ?? [];
      row[j] = Math.min(
        (above[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (above[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
  return table[a.length]?.[b.length] ?? 0;
}

/** The old "did you mean": every candidate compared in full. */
function exhaustive(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = textbook(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(1, Math.floor(word.length / 3));
  return bestDistance > 0 && bestDistance <= limit ? best : undefined;
}

const shortWord = fc.string({
  unit: fc.constantFrom('a', 'b', 'c', 'd', 'A', 'B', '-', '_'),
  maxLength: 9,
});

describe('editDistanceWithin', () => {
  it('is the edit distance up to the bound, and the bound plus one past it', () => {
    fc.assert(
      fc.property(shortWord, shortWord, fc.nat(10), (a, b, max) => {
        expect(editDistanceWithin(a, b, max)).toBe(Math.min(textbook(a, b), max + 1));
        expect(editDistance(a, b)).toBe(textbook(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('closest', () => {
  it('gives what comparing every candidate gives, on sets small enough to compare in full', () => {
    fc.assert(
      fc.property(shortWord, fc.array(shortWord, { maxLength: 16 }), (word, candidates) => {
        expect(closest(word, candidates)).toBe(exhaustive(word, candidates));
      }),
      { numRuns: 3000 },
    );
  });

  it('on larger sets, suggests only a name within a third of the word, never the word itself', () => {
    fc.assert(
      fc.property(shortWord, fc.array(shortWord, { minLength: 17, maxLength: 80 }), (word, set) => {
        const guess = closest(word, set);
        if (guess === undefined) return;
        const distance = textbook(word.toLowerCase(), guess.toLowerCase());
        expect(distance).toBeGreaterThan(0);
        expect(distance).toBeLessThanOrEqual(Math.max(1, Math.floor(word.length / 3)));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds the one-letter typo among thousands of ids that differ only in their tail', () => {
    const ids = Array.from(
      { length: 5000 },
      (_, i) => `refund-to-original-payment-method-${String(i).padStart(5, '0')}`,
    );
    const known = new Set(ids);
    expect(closest('refund-to-original-payment-methd-03127', known)).toBe(
      'refund-to-original-payment-method-03127',
    );
    expect(closest('Refund-To-Original-Payment-Method-4999', known)).toBe(
      'refund-to-original-payment-method-04999',
    );
  });

  it('stops suggesting after so many questions about one set, and still says nothing wrong', () => {
    const known = new Set(Array.from({ length: 40 }, (_, i) => `policy-number-${i}`));
    const answers = Array.from({ length: MAX_SUGGESTIONS + 5 }, () =>
      closest('policy-numbr-7', known),
    );
    expect(answers.slice(0, MAX_SUGGESTIONS).every((a) => a === 'policy-number-7')).toBe(true);
    expect(answers.slice(MAX_SUGGESTIONS)).toEqual(Array(5).fill(undefined));
    // A new set (the next check) suggests again.
    expect(closest('policy-numbr-7', new Set(known))).toBe('policy-number-7');
  });

  it('reads a set that grew since it was indexed afresh', () => {
    const known = new Set(Array.from({ length: 20 }, (_, i) => `tool_${i}_lookup`));
    expect(closest('tool_99_lookp', known)).not.toBe('tool_99_lookup');
    known.add('tool_99_lookup');
    expect(closest('tool_99_lookp', known)).toBe('tool_99_lookup');
  });
});

describe('aside', () => {
  it('sets a message in parentheses without its closing period', () => {
    expect(aside('No such key: x')).toBe('(No such key: x)');
    expect(aside('Too costly. Large repeats multiply the work. ')).toBe(
      '(Too costly. Large repeats multiply the work)',
    );
  });
});
