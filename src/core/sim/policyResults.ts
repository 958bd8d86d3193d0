import type { PassRate } from './metrics.ts';
import { passRate } from './metrics.ts';
import type { DialogueReport, RunReport } from './reportTypes.ts';

/**
 * What one dialogue that had a policy under test says of it: `kept` (examined and not broken,
 * even in a dialogue another policy failed), `broken`, `not-checked` (finished, but nothing
 * examined it), or the dialogue's own `error`, `suspect` or `running`, which say nothing of it.
 */
export type PolicyVerdict = 'kept' | 'broken' | 'not-checked' | 'error' | 'suspect' | 'running';

/** One dialogue that had the policy under test, and what it says of the policy. */
export interface PolicyDialogue {
  readonly dialogue: string;
  readonly scenario: string;
  readonly trial: number;
  readonly verdict: PolicyVerdict;
}

/**
 * A policy's results in one run, as the report counts them: `passes + fails` dialogues tested it
 * (had it under test and examined it), `fails` of those broke it; the rate and interval are the
 * report's. `dialogues` lists every dialogue that had it under test, in the report's order.
 */
export interface PolicyResult extends PassRate {
  readonly policy: string;
  readonly notChecked: number;
  readonly dialogues: readonly PolicyDialogue[];
}

/** Every policy's results in a run, and which relations a dialogue tested (both ends examined). */
export interface RunResults {
  readonly byPolicy: ReadonlyMap<string, PolicyResult>;
  /** `pairKey(a, b)` of every two policies examined together in a finished dialogue. */
  readonly testedPairs: ReadonlySet<string>;
}

/** The key of an unordered pair of policies in `RunResults.testedPairs`. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/**
 * The report's per-policy results laid out for the graph: the counts and rates are the report's
 * own (`byPolicy`), and each dialogue's word on a policy is read from the same dialogue reports
 * the report tallied, by the same rule (under test, examined or broken, broken or not).
 */
export function policyResults(report: RunReport): RunResults {
  const underTest = new Map(report.scenarios.map((s) => [s.id, s.policies]));
  const dialoguesOf = new Map<string, PolicyDialogue[]>();
  const testedPairs = new Set<string>();
  for (const d of report.dialogues) {
    const playing = [...new Set([...(underTest.get(d.scenario) ?? []), ...d.decided])];
    const broken = new Set(d.breaches.flatMap((b) => (b.policy === undefined ? [] : [b.policy])));
    const examined = new Set([...d.examined, ...broken]);
    const finished = d.verdict === 'pass' || d.verdict === 'fail';
    for (const policy of playing) {
      const list = dialoguesOf.get(policy) ?? [];
      list.push({ ...where(d), verdict: verdictOf(d, examined, broken, policy) });
      dialoguesOf.set(policy, list);
    }
    if (!finished) continue;
    const looked = playing.filter((p) => examined.has(p));
    for (const [i, a] of looked.entries())
      for (const b of looked.slice(i + 1)) testedPairs.add(pairKey(a, b));
  }
  const byPolicy = new Map<string, PolicyResult>();
  for (const p of report.byPolicy) {
    byPolicy.set(p.policy, {
      policy: p.policy,
      passes: p.passes,
      fails: p.fails,
      rate: p.rate,
      low: p.low,
      high: p.high,
      notChecked: p.notChecked,
      dialogues: dialoguesOf.get(p.policy) ?? [],
    });
  }
  // A policy under test only in dialogues that ended in errors is not in byPolicy: nothing tested it.
  for (const [policy, dialogues] of dialoguesOf) {
    if (!byPolicy.has(policy))
      byPolicy.set(policy, { policy, ...passRate(0, 0), notChecked: 0, dialogues });
  }
  return { byPolicy, testedPairs };
}

function where(d: DialogueReport) {
  return { dialogue: d.dialogue, scenario: d.scenario, trial: d.trial };
}

function verdictOf(
  d: DialogueReport,
  examined: ReadonlySet<string>,
  broken: ReadonlySet<string>,
  policy: string,
): PolicyVerdict {
  if (d.verdict !== 'pass' && d.verdict !== 'fail') return d.verdict;
  if (!examined.has(policy)) return 'not-checked';
  return broken.has(policy) ? 'broken' : 'kept';
}

/** A policy's failure rate in a run (fails over dialogues that tested it); null when none did. */
export function failureRate(result: PolicyResult | undefined): number | null {
  if (!result || result.passes + result.fails === 0) return null;
  return result.fails / (result.passes + result.fails);
}
