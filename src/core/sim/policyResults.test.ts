import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AIRLINE_POLICY_RESULTS, AIRLINE_RUN, airlineFacts } from '../../test/airlineRun.ts';
import { readLog } from './logFormat.ts';
import { failureRate, pairKey, policyResults } from './policyResults.ts';
import { reportOf } from './report.ts';

function airlineResults() {
  const read = readLog(JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')));
  if (!read.ok) throw new Error(read.error);
  return policyResults(reportOf(read.events, airlineFacts()));
}

describe('policyResults on the recorded airline run', () => {
  const results = airlineResults();

  it('gives the known tested and broken counts, and each dialogue’s word on the policy', () => {
    for (const [policy, known] of Object.entries(AIRLINE_POLICY_RESULTS)) {
      const result = results.byPolicy.get(policy);
      expect(result && { tested: result.passes + result.fails, broken: result.fails }).toEqual({
        tested: known.tested,
        broken: known.broken,
      });
      expect(
        Object.fromEntries(result?.dialogues.map((d) => [d.dialogue, d.verdict]) ?? []),
      ).toEqual(known.dialogues);
    }
  });

  it('gives a failure rate only where something tested the policy', () => {
    expect(failureRate(results.byPolicy.get('whole-reservation-cancellation'))).toBe(1);
    expect(failureRate(results.byPolicy.get('refund-within-24-hours'))).toBe(0.25);
    expect(failureRate(results.byPolicy.get('refund-insured-covered-reason'))).toBeNull();
    expect(failureRate(results.byPolicy.get('not-a-policy'))).toBeNull();
  });

  it('names the relations a finished dialogue examined both ends of', () => {
    const { testedPairs } = results;
    expect(
      testedPairs.has(pairKey('whole-reservation-cancellation', 'refund-business-class')),
    ).toBe(true);
    expect(
      testedPairs.has(pairKey('refund-business-class', 'whole-reservation-cancellation')),
    ).toBe(true);
    // Together only in dialogues that ended in errors, or where one of them was not checked.
    expect(testedPairs.has(pairKey('refund-insured-covered-reason', 'confirm-before-write'))).toBe(
      false,
    );
    expect(
      testedPairs.has(pairKey('whole-reservation-cancellation', 'refund-within-24-hours')),
    ).toBe(false);
  });
});
