import type { PassRate } from './metrics.ts';
import { wilson } from './metrics.ts';
import type { DialogueReport, RunReport, Verdict } from './reportTypes.ts';

/**
 * How two runs of one project differ: per policy, per category and overall, the two pass rates,
 * the difference with its interval, and whether it is beyond noise; and the scenarios whose
 * trials flipped between passing and failing.
 */

/**
 * The difference `after − before` of two independent pass rates, with Newcombe's hybrid score
 * interval (his method 10, built from the two Wilson intervals the report already shows). It
 * stays inside [−1, 1] and is honest for the handful of dialogues a policy gets, where the
 * normal approximation is not. NaN and [−1, 1] when either side has no trials.
 */
export interface RateDifference {
  readonly delta: number;
  readonly low: number;
  readonly high: number;
}

/** Whether a difference is beyond noise (its 95% interval excludes 0), and which way. */
export type Change = 'better' | 'worse' | 'same' | 'untested';

/** One row of a comparison: a policy, a category, or the whole run. */
export interface RateComparison {
  readonly key: string;
  readonly before: PassRate;
  readonly after: PassRate;
  readonly difference: RateDifference;
  readonly change: Change;
}

/** One scenario trial whose verdict differs between the runs. */
export interface Flip {
  readonly scenario: string;
  readonly trial: number;
  readonly before: { readonly dialogue: string; readonly verdict: Verdict };
  readonly after: { readonly dialogue: string; readonly verdict: Verdict };
}

/** The whole comparison of two runs. */
export interface RunComparison {
  /** Whether both runs judged the same project files (their project hashes agree). */
  readonly sameProject: boolean;
  /** Models per role that differ, as `role: before → after`. */
  readonly modelChanges: readonly string[];
  readonly overall: RateComparison;
  readonly byPolicy: readonly RateComparison[];
  readonly byCategory: readonly RateComparison[];
  /** Passed before, failed after. */
  readonly broke: readonly Flip[];
  /** Failed before, passed after. */
  readonly fixed: readonly Flip[];
  /** Trials that ended in an error on one side only (neither better nor worse: not judged). */
  readonly erred: readonly Flip[];
  /** Scenario trials only one run has. */
  readonly onlyBefore: number;
  readonly onlyAfter: number;
}

const NO_TRIALS: PassRate = { passes: 0, fails: 0, rate: NaN, low: 0, high: 1 };

/** Newcombe's hybrid score interval for `after.rate − before.rate` (95%). */
export function rateDifference(before: PassRate, after: PassRate): RateDifference {
  const n1 = before.passes + before.fails;
  const n2 = after.passes + after.fails;
  if (n1 === 0 || n2 === 0) return { delta: NaN, low: -1, high: 1 };
  const a = wilson(before.passes, n1);
  const b = wilson(after.passes, n2);
  const delta = b.rate - a.rate;
  const low = delta - Math.sqrt((b.rate - b.low) ** 2 + (a.high - a.rate) ** 2);
  const high = delta + Math.sqrt((b.high - b.rate) ** 2 + (a.rate - a.low) ** 2);
  return { delta, low: Math.max(-1, low), high: Math.min(1, high) };
}

/** Names the change: better or worse only when the interval of the difference excludes 0. */
export function changeOf(difference: RateDifference): Change {
  if (Number.isNaN(difference.delta)) return 'untested';
  if (difference.low > 0) return 'better';
  if (difference.high < 0) return 'worse';
  return 'same';
}

function compareRate(key: string, before: PassRate, after: PassRate): RateComparison {
  const difference = rateDifference(before, after);
  return { key, before, after, difference, change: changeOf(difference) };
}

function compareKeyed<T extends PassRate>(
  before: readonly T[],
  after: readonly T[],
  keyOf: (row: T) => string,
): RateComparison[] {
  const first = new Map(before.map((row) => [keyOf(row), row]));
  const second = new Map(after.map((row) => [keyOf(row), row]));
  const keys = [...new Set([...first.keys(), ...second.keys()])].sort();
  return keys.map((key) =>
    compareRate(key, first.get(key) ?? NO_TRIALS, second.get(key) ?? NO_TRIALS),
  );
}

const trialKey = (d: DialogueReport) => `${d.scenario}\u0000${d.trial}`;

function flipsOf(before: readonly DialogueReport[], after: readonly DialogueReport[]) {
  const earlier = new Map(before.map((d) => [trialKey(d), d]));
  const later = new Set(after.map(trialKey));
  const broke: Flip[] = [];
  const fixed: Flip[] = [];
  const erred: Flip[] = [];
  let onlyAfter = 0;
  for (const d of after) {
    const old = earlier.get(trialKey(d));
    if (!old) {
      onlyAfter++;
      continue;
    }
    if (old.verdict === d.verdict) continue;
    const flip: Flip = {
      scenario: d.scenario,
      trial: d.trial,
      before: { dialogue: old.dialogue, verdict: old.verdict },
      after: { dialogue: d.dialogue, verdict: d.verdict },
    };
    if (old.verdict === 'pass' && d.verdict === 'fail') broke.push(flip);
    else if (old.verdict === 'fail' && d.verdict === 'pass') fixed.push(flip);
    else if (old.verdict === 'error' || d.verdict === 'error') erred.push(flip);
  }
  const onlyBefore = before.filter((d) => !later.has(trialKey(d))).length;
  return { broke, fixed, erred, onlyBefore, onlyAfter };
}

function modelChanges(before: RunReport, after: RunReport): string[] {
  const a = before.run?.models ?? {};
  const b = after.run?.models ?? {};
  const roles = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort() as (keyof typeof a)[];
  return roles
    .filter((role) => a[role] !== b[role])
    .map((role) => `${role}: ${a[role] ?? 'none'} → ${b[role] ?? 'none'}`);
}

/**
 * Compares two runs' reports: `before` is the baseline, `after` the run under question. Scenario
 * trials are matched by scenario id and trial number, so two runs of one project line up.
 */
export function compareRuns(before: RunReport, after: RunReport): RunComparison {
  return {
    sameProject:
      before.run !== null && after.run !== null && before.run.projectHash === after.run.projectHash,
    modelChanges: modelChanges(before, after),
    overall: compareRate('overall', before.overall, after.overall),
    byPolicy: compareKeyed(before.byPolicy, after.byPolicy, (p) => p.policy),
    byCategory: compareKeyed(before.byCategory, after.byCategory, (c) => c.category),
    ...flipsOf(before.dialogues, after.dialogues),
  };
}

/**
 * The regressions a gate fails on: the overall rate or a policy's rate dropped by more than
 * `maxDrop` (a share, 0.05 = five points) AND beyond noise. A drop inside noise never fails.
 */
export function regressions(comparison: RunComparison, maxDrop: number): RateComparison[] {
  return [comparison.overall, ...comparison.byPolicy].filter(
    (row) => row.change === 'worse' && -row.difference.delta > maxDrop,
  );
}
