/** A share of successes and the interval it probably lies in. */
export interface Interval {
  /** successes / trials; NaN when there were no trials. */
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** A pass rate with the counts behind it: passes out of passes + fails, errors left out. */
export interface PassRate extends Interval {
  readonly passes: number;
  readonly fails: number;
}

/**
 * The Wilson score interval for `successes` out of `trials` (95% with the default z). Unlike the
 * normal approximation it stays inside [0, 1] and is honest for small samples and rates near 0
 * or 1, which is what a handful of dialogues per policy gives. With no trials nothing is known:
 * the rate is NaN and the interval is [0, 1].
 */
export function wilson(successes: number, trials: number, z = 1.959964): Interval {
  if (!(successes >= 0 && successes <= trials)) {
    throw new RangeError(`wilson: ${successes} successes out of ${trials} trials`);
  }
  if (trials === 0) return { rate: NaN, low: 0, high: 1 };
  const rate = successes / trials;
  const z2 = z * z;
  const scale = 1 + z2 / trials;
  const centre = (rate + z2 / (2 * trials)) / scale;
  const half = (z / scale) * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials));
  // At 0 or all successes, rounding can leave a bound a hair past the rate or outside [0, 1].
  return {
    rate,
    low: Math.max(0, Math.min(rate, centre - half)),
    high: Math.min(1, Math.max(rate, centre + half)),
  };
}

/** `passes` out of `passes + fails`, with its 95% Wilson interval. */
export function passRate(passes: number, fails: number): PassRate {
  return { passes, fails, ...wilson(passes, passes + fails) };
}

/**
 * tau-bench's pass^k: the chance that k trials of a scenario, drawn without replacement from the
 * n that ran, all pass, averaged over scenarios: mean of C(c, k) / C(n, k) with c passes of n.
 * Scenarios with fewer than k trials are left out; NaN when none is left. The ratio is taken as
 * a product of k fractions, so it neither overflows nor loses precision for large n.
 */
export function passHatK(
  trialsPerScenario: ReadonlyArray<{ readonly passes: number; readonly trials: number }>,
  k: number,
): number {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`pass^k: k must be 1 or more, not ${k}`);
  let sum = 0;
  let scenarios = 0;
  for (const { passes, trials } of trialsPerScenario) {
    if (trials < k) continue;
    let chance = 1;
    // C(c, k) / C(n, k) = ∏ (c - i) / (n - i); a zero factor (c < k) ends it before going negative.
    for (let i = 0; i < k && chance > 0; i++) chance *= (passes - i) / (trials - i);
    sum += chance;
    scenarios++;
  }
  return scenarios === 0 ? NaN : sum / scenarios;
}
