import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passHatK, passRate, wilson } from './metrics.ts';

describe('wilson', () => {
  it('matches published 95% intervals', () => {
    const eight = wilson(8, 10);
    expect(eight.rate).toBe(0.8);
    expect(eight.low).toBeCloseTo(0.4902, 4);
    expect(eight.high).toBeCloseTo(0.9433, 4);

    const none = wilson(0, 10);
    expect(none).toEqual({ rate: 0, low: 0, high: expect.closeTo(0.2775, 4) as number });

    const all = wilson(10, 10);
    expect(all).toEqual({ rate: 1, low: expect.closeTo(0.7225, 4) as number, high: 1 });

    const one = wilson(1, 1);
    expect(one.low).toBeCloseTo(0.2065, 4);
    expect(one.high).toBe(1);
  });

  it('knows nothing from no trials', () => {
    expect(wilson(0, 0)).toEqual({ rate: NaN, low: 0, high: 1 });
  });

  it('refuses counts that cannot be', () => {
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
  });

  it('keeps the rate inside a bounded interval that narrows with more trials', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 2, max: 20 }),
        (trials, s, times) => {
          const successes = s % (trials + 1);
          const { rate, low, high } = wilson(successes, trials);
          expect(0).toBeLessThanOrEqual(low);
          expect(low).toBeLessThanOrEqual(rate);
          expect(rate).toBeLessThanOrEqual(high);
          expect(high).toBeLessThanOrEqual(1);
          const more = wilson(successes * times, trials * times);
          expect(more.high - more.low).toBeLessThan(high - low);
        },
      ),
    );
  });
});

describe('passRate', () => {
  it('leaves nothing but passes and fails in the denominator', () => {
    expect(passRate(8, 2)).toEqual({ passes: 8, fails: 2, ...wilson(8, 10) });
  });
});

describe('passHatK', () => {
  it('is the plain pass rate averaged over scenarios at k = 1', () => {
    const scenarios = [
      { passes: 3, trials: 4 },
      { passes: 1, trials: 2 },
    ];
    expect(passHatK(scenarios, 1)).toBeCloseTo((3 / 4 + 1 / 2) / 2, 12);
  });

  it('is 1 when every trial passed, 0 when a scenario never passed k times', () => {
    expect(passHatK([{ passes: 5, trials: 5 }], 5)).toBe(1);
    expect(passHatK([{ passes: 1, trials: 3 }], 2)).toBe(0);
  });

  it('counts the ways k of the n trials all pass', () => {
    // C(3,2)/C(4,2) = 3/6; C(2,2)/C(4,2) = 1/6.
    expect(passHatK([{ passes: 3, trials: 4 }], 2)).toBeCloseTo(0.5, 12);
    expect(passHatK([{ passes: 2, trials: 4 }], 2)).toBeCloseTo(1 / 6, 12);
    expect(
      passHatK(
        [
          { passes: 3, trials: 4 },
          { passes: 2, trials: 4 },
        ],
        2,
      ),
    ).toBeCloseTo((0.5 + 1 / 6) / 2, 12);
  });

  it('leaves out scenarios with fewer than k trials, NaN when none is left', () => {
    const scenarios = [
      { passes: 2, trials: 2 },
      { passes: 0, trials: 1 },
    ];
    expect(passHatK(scenarios, 2)).toBe(1);
    expect(passHatK(scenarios, 3)).toBeNaN();
  });

  it('stays exact where factorials would overflow', () => {
    // C(999, 500) / C(1000, 500) = 500 / 1000.
    expect(passHatK([{ passes: 999, trials: 1000 }], 500)).toBeCloseTo(0.5, 12);
  });

  it('refuses a k that is not a positive whole number', () => {
    expect(() => passHatK([], 0)).toThrow(RangeError);
    expect(() => passHatK([], 1.5)).toThrow(RangeError);
  });
});
