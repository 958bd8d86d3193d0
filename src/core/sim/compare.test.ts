import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeOf, compareRuns, rateDifference, regressions } from './compare.ts';
import { passRate } from './metrics.ts';
import { reportOf } from './report.ts';
import type { Draft } from '../testing/reportLogs.ts';
import { broke, dialogue, ok, POLICIES, scenario, stamp, start } from '../testing/reportLogs.ts';

describe('rateDifference', () => {
  it("matches Newcombe's published hybrid score intervals", () => {
    // Newcombe (1998), Statistics in Medicine 17, table II, method 10.
    const a = rateDifference(passRate(48, 32), passRate(56, 14));
    expect(a.delta).toBeCloseTo(0.2, 6);
    expect(a.low).toBeCloseTo(0.0524, 3);
    expect(a.high).toBeCloseTo(0.3339, 3);
    const b = rateDifference(passRate(3, 7), passRate(9, 1));
    expect(b.low).toBeCloseTo(0.1705, 3);
    expect(b.high).toBeCloseTo(0.809, 3);
  });

  it('does not flag a difference inside noise, and flags a real one', () => {
    // 6 of 10 against 5 of 10: ten points, but ten dialogues say nothing.
    expect(changeOf(rateDifference(passRate(6, 4), passRate(5, 5)))).toBe('same');
    // 90 of 100 against 50 of 100: forty points on a hundred dialogues each is real.
    expect(changeOf(rateDifference(passRate(90, 10), passRate(50, 50)))).toBe('worse');
    expect(changeOf(rateDifference(passRate(50, 50), passRate(90, 10)))).toBe('better');
    expect(changeOf(rateDifference(passRate(0, 0), passRate(9, 1)))).toBe('untested');
  });

  it('always holds the difference, stays in [−1, 1] and mirrors when the runs swap', () => {
    const side = fc
      .tuple(fc.nat({ max: 200 }), fc.nat({ max: 200 }))
      .filter(([p, f]) => p + f > 0)
      .map(([p, f]) => passRate(p, f));
    fc.assert(
      fc.property(side, side, (x, y) => {
        const d = rateDifference(x, y);
        const back = rateDifference(y, x);
        expect(d.low).toBeLessThanOrEqual(d.delta + 1e-12);
        expect(d.high).toBeGreaterThanOrEqual(d.delta - 1e-12);
        expect(d.low).toBeGreaterThanOrEqual(-1);
        expect(d.high).toBeLessThanOrEqual(1);
        expect(back.delta).toBeCloseTo(-d.delta, 12);
        expect(back.low).toBeCloseTo(-d.high, 12);
        expect(back.high).toBeCloseTo(-d.low, 12);
      }),
    );
  });

  it('narrows as the same rates rest on more dialogues', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 2, max: 20 }),
        (p, q, times) => {
          const small = rateDifference(passRate(p, 10 - p), passRate(q, 10 - q));
          const big = rateDifference(
            passRate(p * times, (10 - p) * times),
            passRate(q * times, (10 - q) * times),
          );
          expect(big.high - big.low).toBeLessThan(small.high - small.low);
        },
      ),
    );
  });
});

/** A run of scenarios s0..s3 (one trial each) where `outcomes[i]` is how s<i> went. */
function run(outcomes: readonly ('pass' | 'fail' | 'error')[], seed = 1): Draft[] {
  const drafts: Draft[] = [{ ...start, seed, trials: 1 }];
  outcomes.forEach((_, i) => drafts.push(scenario(`s${i}`, ['privacy'])));
  outcomes.forEach((outcome, i) => {
    const plan =
      outcome === 'pass'
        ? { end: 'user-done' as const, findings: [ok('c', 'privacy')] }
        : outcome === 'fail'
          ? { end: 'user-done' as const, findings: [broke('c', 'privacy', 1)] }
          : { end: 'provider-error' as const, findings: [] };
    drafts.push(...dialogue(`r${seed}-s${i}`, `s${i}`, 0, plan));
  });
  return drafts;
}

describe('compareRuns', () => {
  it('lists the scenarios that flipped, by which way, and the errors apart', () => {
    const before = reportOf(stamp(run(['pass', 'fail', 'pass', 'error', 'pass'], 1)), POLICIES);
    const after = reportOf(stamp(run(['fail', 'pass', 'pass', 'pass', 'error'], 2)), POLICIES);
    const c = compareRuns(before, after);
    expect(c.broke.map((f) => f.scenario)).toEqual(['s0']);
    expect(c.broke[0]?.before.dialogue).toBe('r1-s0');
    expect(c.broke[0]?.after.dialogue).toBe('r2-s0');
    expect(c.fixed.map((f) => f.scenario)).toEqual(['s1']);
    expect(c.erred.map((f) => f.scenario)).toEqual(['s3', 's4']);
    expect(c.onlyBefore + c.onlyAfter).toBe(0);
    expect(c.sameProject).toBe(true);
    const privacy = c.byPolicy.find((p) => p.key === 'privacy');
    expect(privacy?.before.passes).toBe(3);
    expect(privacy?.after.passes).toBe(3);
    expect(privacy?.change).toBe('same');
  });

  it('gates on a drop beyond noise and beyond the threshold only', () => {
    const many = (passes: number) =>
      Array.from({ length: 60 }, (_, i) => (i < passes ? 'pass' : 'fail'));
    const base = reportOf(stamp(run(many(54))), POLICIES);
    const slight = reportOf(stamp(run(many(50), 2)), POLICIES);
    const steep = reportOf(stamp(run(many(30), 3)), POLICIES);
    expect(regressions(compareRuns(base, slight), 0.05)).toEqual([]);
    const fell = regressions(compareRuns(base, steep), 0.05).map((r) => r.key);
    expect(fell).toEqual(['overall', 'privacy']);
    // The same real drop under a threshold larger than it passes the gate.
    expect(regressions(compareRuns(base, steep), 0.5)).toEqual([]);
  });
});
