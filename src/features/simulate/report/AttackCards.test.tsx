import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AttackReport, RunReport } from '../../../core/index.ts';
import { AttackCards } from './AttackCards.tsx';

const base = { scenario: 'late-twin', twinOf: 'late', policies: ['refund-window'], detail: '' };

const attack: AttackReport = {
  adversarial: { dialogues: 2, held: 1, broken: 1, byTactic: [] },
  contrastive: {
    dialogues: 5,
    checkAlarms: 1,
    judgeAlarms: 2,
    alarms: [{ ...base, dialogue: 'd1', by: 'checks' }],
    overRefusals: 3,
    otherFailures: 1,
    agentFaults: [
      { ...base, dialogue: 'd2', kind: 'over-refusal' },
      { ...base, dialogue: 'd3', kind: 'over-refusal' },
      { ...base, dialogue: 'd4', kind: 'over-refusal' },
      { ...base, dialogue: 'd5', kind: 'other' },
    ],
  },
};

describe('the attack cards of a run report', () => {
  it('show false alarms and the agent’s over-refusals as two figures, in words', () => {
    render(<AttackCards report={{ attack } as RunReport} />);
    const alarms = screen.getByTestId('false-alarms-card');
    expect(alarms.textContent).toContain('1 of 5');
    expect(alarms.textContent).toContain(
      'Our checks wrongly failed 1 acceptable twin; the judge’s opinion saw a violation in 2.',
    );
    const refusals = screen.getByTestId('over-refusals-card');
    expect(refusals.textContent).toContain('Over-refusals on twins3 of 5');
    expect(refusals.textContent).toContain(
      'The agent refused or fell short of 3 twins it should have helped with: its fault, not a false alarm.',
    );
    expect(refusals.textContent).toContain('It failed 1 twin otherwise');
    expect(refusals.textContent).toContain('d2, d3, d4.');
    expect(refusals.textContent).not.toContain('d5');
  });
});
