import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft, Plan } from '../testing/reportLogs.ts';
import { POLICIES, broke, dialogue, ok, scenario, stamp, start } from '../testing/reportLogs.ts';
import type { PolicyVerdict } from './policyResults.ts';
import { pairKey, policyResults } from './policyResults.ts';
import { reportOf } from './report.ts';

const OUTCOMES = ['pass', 'check', 'guard', 'unrelated', 'error', 'running'] as const;
const POOL = ['ask-consent', 'confirm-cancel', 'privacy', 'refund-window'];

type Outcome = (typeof OUTCOMES)[number];

/** One dialogue's plan: a finding about one policy (kept or broken), a refusal, or an ending. */
function planOf(outcome: Outcome, policy: string): Plan {
  switch (outcome) {
    case 'check':
      return { end: 'user-done', findings: [broke('c', policy, 2)] };
    case 'guard':
      return { refuse: { rule: 'r', policy, turn: 1 }, end: 'guard-end', findings: [] };
    case 'unrelated':
      return { end: 'max-turns', findings: [broke('expected.database[0]', undefined)] };
    case 'error':
      return { end: 'provider-error', findings: [broke('c', policy)] };
    case 'running':
      return {};
    case 'pass':
      return { end: 'user-done', findings: [ok('c', policy)] };
  }
}

/** What a dialogue of `outcome` about `about` says of `policy`, which it had under test. */
function expectedVerdict(outcome: Outcome, about: string, policy: string): PolicyVerdict {
  if (outcome === 'error' || outcome === 'running') return outcome;
  if (outcome === 'unrelated' || about !== policy) return 'not-checked';
  return outcome === 'pass' ? 'kept' : 'broken';
}

describe('policyResults on random logs', () => {
  it('agrees with the report’s counts, and says of each dialogue what happened in it', () => {
    const arbitrary = fc.record({
      trials: fc.integer({ min: 1, max: 3 }),
      scenarios: fc.array(fc.subarray(POOL), { minLength: 1, maxLength: 4 }),
      outcomes: fc.array(fc.tuple(fc.constantFrom(...OUTCOMES), fc.constantFrom(...POOL)), {
        minLength: 12,
        maxLength: 12,
      }),
    });
    fc.assert(
      fc.property(arbitrary, ({ trials, scenarios, outcomes }) => {
        const drafts: Draft[] = [{ ...start, trials }];
        scenarios.forEach((policies, i) => drafts.push(scenario(`s${i}`, policies)));
        const expected = new Map<string, Map<string, PolicyVerdict>>();
        const pairs = new Set<string>();
        scenarios.forEach((policies, i) => {
          for (let t = 0; t < trials; t++) {
            const [outcome, about] = outcomes[(i * trials + t) % outcomes.length] ?? ['pass', ''];
            const id = `s${i}-${t}`;
            drafts.push(...dialogue(id, `s${i}`, t, planOf(outcome, about)));
            for (const policy of policies) {
              const of = expected.get(policy) ?? new Map<string, PolicyVerdict>();
              of.set(id, expectedVerdict(outcome, about, policy));
              expected.set(policy, of);
            }
          }
        });
        // One policy is examined per dialogue here, so no relation is ever tested.
        const report = reportOf(stamp(drafts), POLICIES);
        const results = policyResults(report);

        // Every policy under test, and any the report lists (one broken out of play, too).
        const policies = new Set([...expected.keys(), ...report.byPolicy.map((p) => p.policy)]);
        expect([...results.byPolicy.keys()].sort()).toEqual([...policies].sort());
        for (const [policy, result] of results.byPolicy) {
          const said = (v: PolicyVerdict) => result.dialogues.filter((d) => d.verdict === v).length;
          const counted = report.byPolicy.find((p) => p.policy === policy);
          expect(said('kept')).toBe(counted?.passes ?? 0);
          expect(said('broken')).toBe(counted?.fails ?? 0);
          expect(said('not-checked')).toBe(counted?.notChecked ?? 0);
          expect({ passes: result.passes, fails: result.fails }).toEqual({
            passes: counted?.passes ?? 0,
            fails: counted?.fails ?? 0,
          });
          expect(new Map(result.dialogues.map((d) => [d.dialogue, d.verdict]))).toEqual(
            expected.get(policy) ?? new Map(),
          );
        }
        expect(results.testedPairs).toEqual(pairs);
      }),
    );
  });

  it('counts a relation tested where one finished dialogue examined both its policies', () => {
    fc.assert(
      fc.property(
        fc.subarray(POOL, { minLength: 2 }),
        fc.subarray(POOL),
        fc.constantFrom('user-done', 'provider-error'),
        (playing, examined, end) => {
          const findings = examined.map((p) => ok(`c-${p}`, p));
          const report = reportOf(
            stamp([
              { ...start, trials: 1 },
              scenario('s', playing),
              ...dialogue('d', 's', 0, { end: end as 'user-done', findings }),
            ]),
            POLICIES,
          );
          const { testedPairs } = policyResults(report);
          const looked = playing.filter((p) => examined.includes(p));
          for (const a of POOL)
            for (const b of POOL) {
              if (a === b) continue;
              const both = looked.includes(a) && looked.includes(b) && end === 'user-done';
              expect(testedPairs.has(pairKey(a, b))).toBe(both);
            }
        },
      ),
    );
  });
});
