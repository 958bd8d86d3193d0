import { describe, expect, it } from 'vitest';
import { WeightTree, createRng } from './random.ts';

const bump = (counts: number[], i: number) => {
  counts[i] = (counts[i] ?? 0) + 1;
};

const draws = (seed: number, count = 5) => {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => rng.next());
};

describe('createRng', () => {
  it('repeats a sequence for the same seed and changes it for another', () => {
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
    // Seeds are 32-bit: 2^32 + 42 is 42 again, and fractions are cut.
    expect(draws(2 ** 32 + 42)).toEqual(draws(42));
    expect(draws(42.9)).toEqual(draws(42));
  });

  it('stays in [0, 1) and spreads evenly', () => {
    const rng = createRng(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const x = rng.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      bump(buckets, Math.floor(x * 10));
    }
    for (const b of buckets) expect(Math.abs(b - 2000)).toBeLessThan(200);
  });

  it('draws whole numbers below n', () => {
    const rng = createRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(rng.int(6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rng.int(0)).toBe(0);
  });

  it('draws by weight, never a zero or negative weight, and -1 when nothing weighs', () => {
    const rng = createRng(3);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 30_000; i++) bump(counts, rng.weighted([1, 0, 3, -2]));
    expect(counts[1]).toBe(0);
    expect(counts[3]).toBe(0);
    expect((counts[2] ?? 0) / (counts[0] ?? 1)).toBeGreaterThan(2.7);
    expect((counts[2] ?? 0) / (counts[0] ?? 1)).toBeLessThan(3.3);
    expect(rng.weighted([0, 0])).toBe(-1);
    expect(rng.weighted([])).toBe(-1);
    // Only the first `length` weights count.
    for (let i = 0; i < 100; i++) expect(rng.weighted([0, 1, 5], 2)).toBe(1);
  });

  it('draws from a range of running totals in proportion, skipping zero steps', () => {
    const rng = createRng(5);
    // Weights 9 (outside), then 1, 0, 3 in the range [1, 4).
    const cumulative = [9, 1, 1, 4];
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) bump(counts, rng.cumulative(cumulative, 1, 4));
    expect(counts[0]).toBe(0);
    expect(counts[2]).toBe(0);
    expect((counts[3] ?? 0) / (counts[1] ?? 1)).toBeGreaterThan(2.7);
    expect((counts[3] ?? 0) / (counts[1] ?? 1)).toBeLessThan(3.3);
    expect(rng.cumulative(cumulative, 2, 2)).toBe(-1);
    expect(rng.cumulative([0, 0], 0, 2)).toBe(-1);
  });

  it('shuffles into a permutation, the same one for the same seed', () => {
    const shuffled = createRng(9).shuffle([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...shuffled].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(shuffled).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(createRng(9).shuffle([1, 2, 3, 4, 5, 6, 7, 8])).toEqual(shuffled);
  });
});

describe('WeightTree', () => {
  it('draws in proportion to weights that change, never a zero weight', () => {
    const tree = new WeightTree([1, 0, 3, 0, 0]);
    const rng = createRng(11);
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) bump(counts, tree.draw(rng));
    expect(counts[1]).toBe(0);
    expect((counts[2] ?? 0) / (counts[0] ?? 1)).toBeGreaterThan(2.7);
    expect((counts[2] ?? 0) / (counts[0] ?? 1)).toBeLessThan(3.3);
    tree.set(2, 0);
    tree.set(4, 2);
    const later = [0, 0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) bump(later, tree.draw(rng));
    expect(later[2]).toBe(0);
    expect((later[4] ?? 0) / (later[0] ?? 1)).toBeGreaterThan(1.8);
    expect((later[4] ?? 0) / (later[0] ?? 1)).toBeLessThan(2.2);
    expect(new WeightTree([]).draw(rng)).toBe(-1);
    expect(new WeightTree([0, -1]).draw(rng)).toBe(-1);
  });
});
