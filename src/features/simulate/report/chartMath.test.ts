import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  endingCounts,
  levelChartLabel,
  linearScale,
  nextSort,
  passHatKLabel,
  sortRows,
} from './chartMath.ts';

describe('linearScale', () => {
  it('maps the ends of the domain onto the ends of the range, and the middle between', () => {
    const y = linearScale([0, 1], [100, 0]);
    expect([y(0), y(0.5), y(1)]).toEqual([100, 50, 0]);
  });

  it('maps a one-point domain onto the start of the range', () => {
    expect(linearScale([3, 3], [10, 20])(3)).toBe(10);
  });
});

describe('chart labels', () => {
  it('state every level’s rate, count and interval', () => {
    expect(
      levelChartLabel([
        { level: 9, passes: 0, fails: 2, rate: 0, low: 0, high: 0.6576 },
        { level: null, passes: 0, fails: 0, rate: NaN, low: 0, high: 1 },
      ]),
    ).toBe(
      'Pass rate by challenge level. level 9: 0% (0 of 2 passed, 95% interval 0 to 66%); level unknown: no rate (0 of 0 passed, nothing judged).',
    );
  });

  it('state pass^k for every k', () => {
    expect(
      passHatKLabel([
        { k: 1, value: 0.5, scenarios: 3 },
        { k: 2, value: 1 / 3, scenarios: 3 },
      ]),
    ).toContain('k=1: 50% over 3 scenarios; k=2: 33% over 3 scenarios');
  });
});

describe('sortRows', () => {
  const rate = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(NaN));

  it('orders by the key, NaN last, keeping every row once', () => {
    fc.assert(
      fc.property(fc.array(rate), fc.boolean(), (rates, up) => {
        const rows = rates.map((value, id) => ({ id, value }));
        const sorted = sortRows(rows, (r) => r.value, up ? 'ascending' : 'descending');
        expect(sorted.map((r) => r.id).sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
        const values = sorted.map((r) => r.value);
        const firstNaN = values.findIndex((v) => Number.isNaN(v));
        const numbers = firstNaN === -1 ? values : values.slice(0, firstNaN);
        if (firstNaN !== -1) expect(values.slice(firstNaN).every(Number.isNaN)).toBe(true);
        for (let i = 1; i < numbers.length; i++) {
          const [a, b] = [numbers[i - 1] ?? 0, numbers[i] ?? 0];
          expect(up ? a <= b : a >= b).toBe(true);
        }
      }),
    );
  });

  it('keeps ties in their order and sorts text by its letters', () => {
    const rows = [
      { name: 'b', n: 1 },
      { name: 'a', n: 1 },
      { name: 'c', n: 0 },
    ];
    expect(sortRows(rows, (r) => r.n, 'descending').map((r) => r.name)).toEqual(['b', 'a', 'c']);
    expect(sortRows(rows, (r) => r.name, 'ascending').map((r) => r.name)).toEqual(['a', 'b', 'c']);
  });
});

describe('nextSort', () => {
  it('sorts a new column (names A to Z, numbers highest first), and turns it round on a second click', () => {
    expect(nextSort(null, 'rate')).toEqual({ key: 'rate', direction: 'descending' });
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'ascending' });
    expect(nextSort({ key: 'rate', direction: 'descending' }, 'rate').direction).toBe('ascending');
    expect(nextSort({ key: 'rate', direction: 'ascending' }, 'name').direction).toBe('ascending');
  });
});

describe('endingCounts', () => {
  it('counts finished dialogues by ending, the errors among them, most common first', () => {
    expect(
      endingCounts([
        { ending: 'user-done', verdict: 'pass' },
        { ending: 'provider-error', verdict: 'error' },
        { ending: 'user-done', verdict: 'fail' },
        { ending: null, verdict: 'running' },
        { ending: 'user-done', verdict: 'error' },
      ]),
    ).toEqual([
      { reason: 'user-done', count: 3, errors: 1 },
      { reason: 'provider-error', count: 1, errors: 1 },
    ]);
  });
});
