import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AIRLINE_POLICIES, AIRLINE_RATINGS } from '../testing/airlineRelations.ts';
import { heuristicRankAgreement, spearman } from './rankAgreement.ts';

describe('spearman', () => {
  it('is 1 for the same order, -1 for the reverse, and averages ties', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    // Ranks [1.5, 1.5, 3] against [1, 2, 3]: r = 0.866.
    expect(spearman([5, 5, 9], [1, 2, 3])).toBeCloseTo(Math.sqrt(3) / 2);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBe(0);
    expect(spearman([1], [1])).toBe(0);
  });

  it('depends only on the order of the values, and lies in [-1, 1]', () => {
    const list = fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 2, maxLength: 30 });
    fc.assert(
      fc.property(list, list, (xs, raw) => {
        const ys = xs.map((_, i) => raw[i % raw.length] ?? 0);
        const r = spearman(xs, ys);
        expect(Math.abs(r)).toBeLessThanOrEqual(1 + 1e-9);
        expect(
          spearman(
            xs,
            ys.map((y) => y * 3 + 7),
          ),
        ).toBeCloseTo(r);
        expect(spearman(ys, xs)).toBeCloseTo(r);
      }),
    );
  });
});

describe('heuristicRankAgreement', () => {
  it('rates the fixture pairs, all of which name fixture policies', () => {
    const ids = new Set(AIRLINE_POLICIES.map((policy) => policy.id));
    expect(AIRLINE_POLICIES).toHaveLength(35);
    expect(ids.size).toBe(35);
    expect(AIRLINE_RATINGS.length).toBeGreaterThanOrEqual(80);
    const keys = AIRLINE_RATINGS.map(([a, b]) => (a < b ? `${a}|${b}` : `${b}|${a}`));
    expect(new Set(keys).size).toBe(keys.length);
    for (const [a, b, w] of AIRLINE_RATINGS) {
      expect(ids.has(a) && ids.has(b) && a !== b, `${a} ${b}`).toBe(true);
      expect(w >= 0 && w <= 10).toBe(true);
    }
  });

  it('agrees with the hand ratings above 0.5, and categories lift it', () => {
    const withCategories = heuristicRankAgreement(AIRLINE_POLICIES, AIRLINE_RATINGS);
    const without = heuristicRankAgreement(
      AIRLINE_POLICIES.map(({ category: _, ...rest }) => rest),
      AIRLINE_RATINGS,
    );
    expect(withCategories).toBeGreaterThan(0.65);
    expect(withCategories).toBeGreaterThan(without + 0.05);
  });
});
