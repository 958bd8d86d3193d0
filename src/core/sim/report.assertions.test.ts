import { describe, expect, it } from 'vitest';
import type { Draft } from '../testing/reportLogs.ts';
import { POLICIES, broke, dialogue, ok, stamp, start } from '../testing/reportLogs.ts';
import { testScenario } from '../testing/scenarios.ts';
import { reportOf } from './report.ts';

const TEXTS = ['The agent refuses to cancel the delivered order.', 'The agent offers a return.'];

/** A tau2-style scenario: no policies, no persona, two natural-language assertions. */
const announced: Draft = {
  type: 'scenario',
  source: 'hand-written',
  scenario: testScenario({
    id: 'tau',
    policies: [],
    persona: '',
    expected: {
      requiredActions: ['cancel'],
      assertions: [
        { text: 'The agent refuses to cancel the delivered order.' },
        { text: 'The agent offers a return.', policy: 'refund-window' },
      ],
    },
  }),
};

const opinion = (dialogueId: string, i: number, met: boolean): Draft => ({
  type: 'assertion',
  dialogue: dialogueId,
  id: `expected.assertions[${i}]`,
  text: TEXTS[i] ?? '',
  met,
  turn: 1,
  reason: met ? 'It did.' : 'It did not.',
  evidence: '"Hi"',
});

describe('reportOf: natural-language assertions', () => {
  it('lists them as not judged in a run without a judge, and the verdict stands on the checks', () => {
    const report = reportOf(
      stamp([
        start,
        announced,
        ...dialogue('tau#1', 'tau', 0, { end: 'user-done', findings: [ok('c1')] }),
        ...dialogue('tau#2', 'tau', 1, {
          end: 'user-done',
          findings: [broke('expected.required_actions[0]', undefined)],
        }),
      ]),
      POLICIES,
    );
    const [first, second] = report.dialogues;
    expect(first?.verdict).toBe('pass');
    expect(first?.assertions.map((a) => [a.id, a.opinion, a.policy, a.reason])).toEqual([
      [
        'expected.assertions[0]',
        'not-judged',
        undefined,
        'Not judged: the run had no judge model.',
      ],
      [
        'expected.assertions[1]',
        'not-judged',
        'refund-window',
        'Not judged: the run had no judge model.',
      ],
    ]);
    // A scenario with no policies still runs and is reported: its failure is unattributed.
    expect(second?.verdict).toBe('fail');
    expect(report.unattributed.map((u) => u.id)).toEqual(['expected.required_actions[0]']);
    expect(report.judgeOpinion.assertions).toEqual({ met: 0, notMet: 0, notJudged: 4, graded: 0 });
  });

  it('shows the judge’s opinions apart: an unmet assertion never fails a dialogue', () => {
    const withJudge = { ...start, models: { agent: 'gpt-x', judge: 'judge-model' } };
    const report = reportOf(
      stamp([
        withJudge,
        announced,
        ...dialogue('tau#1', 'tau', 0, { end: 'user-done', findings: [ok('c1')] }),
        opinion('tau#1', 0, false),
        opinion('tau#1', 1, true),
        ...dialogue('tau#2', 'tau', 1, { end: 'provider-error', findings: [] }),
      ]),
      POLICIES,
    );
    const [judged, failed] = report.dialogues;
    expect(judged?.verdict).toBe('pass');
    expect(judged?.assertions).toEqual([
      {
        id: 'expected.assertions[0]',
        text: 'The agent refuses to cancel the delivered order.',
        policy: undefined,
        opinion: 'not-met',
        turn: 1,
        turnLabel: 'the agent’s 1st reply',
        reason: 'It did not.',
        evidence: '"Hi"',
      },
      {
        id: 'expected.assertions[1]',
        text: 'The agent offers a return.',
        policy: 'refund-window',
        opinion: 'met',
        turn: 1,
        turnLabel: 'the agent’s 1st reply',
        reason: 'It did.',
        evidence: '"Hi"',
      },
    ]);
    expect(failed?.assertions.map((a) => a.reason)).toEqual([
      'Not judged: the dialogue ended in an error.',
      'Not judged: the dialogue ended in an error.',
    ]);
    expect(report.judgeOpinion.assertions).toEqual({ met: 1, notMet: 1, notJudged: 2, graded: 0 });
    // Opinions are not findings: nothing about a policy's rate moved.
    expect(report.byPolicy).toEqual([]);
  });

  it('fails a dialogue on an unmet assertion when the scenario is graded by them, as the judge’s opinion', () => {
    const withJudge = { ...start, models: { agent: 'gpt-x', judge: 'judge-model' } };
    const graded: Draft = {
      ...announced,
      scenario: testScenario({
        id: 'tau',
        policies: [],
        persona: '',
        expected: {
          requiredActions: ['cancel'],
          assertions: [{ text: TEXTS[0] ?? '' }, { text: TEXTS[1] ?? '', policy: 'refund-window' }],
          gradedBy: ['assertions'],
        },
      }),
    };
    const report = reportOf(
      stamp([
        withJudge,
        graded,
        // The required action failed, but the scenario is not graded by it.
        ...dialogue('tau#1', 'tau', 0, {
          end: 'user-done',
          findings: [{ ...broke('expected.required_actions[0]', undefined), ungraded: true }],
        }),
        opinion('tau#1', 0, true),
        opinion('tau#1', 1, false),
        ...dialogue('tau#2', 'tau', 1, { end: 'user-done', findings: [] }),
        opinion('tau#2', 0, true),
        opinion('tau#2', 1, true),
        // The judge gave no answer about the second: the dialogue is not passed by silence.
        ...dialogue('tau#3', 'tau', 2, { end: 'user-done', findings: [] }),
        opinion('tau#3', 0, true),
      ]),
      POLICIES,
    );
    const [unmet, met, silent] = report.dialogues;
    expect(unmet?.verdict).toBe('fail');
    expect(unmet?.breaches.map((b) => [b.source, b.id, b.policy])).toEqual([
      ['assertion', 'expected.assertions[1]', 'refund-window'],
    ]);
    expect(unmet?.breaches[0]?.detail).toMatch(
      /^The judge’s opinion \(a model; the scenario is graded by it\)/,
    );
    expect(unmet?.ungraded.map((u) => u.id)).toEqual(['expected.required_actions[0]']);
    expect(met?.verdict).toBe('pass');
    expect(silent?.verdict).toBe('pass');
    expect(silent?.unclear.map((u) => u.id)).toEqual(['expected.assertions[1]']);
    expect(unmet?.assertions.every((a) => a.graded === true)).toBe(true);
    expect(report.judgeOpinion.assertions).toEqual({ met: 4, notMet: 1, notJudged: 1, graded: 6 });
  });
});
