import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../core/index.ts';
import type { Draft } from '../../core/testing/reportLogs.ts';
import { POLICIES, dialogue, ok, stamp, start } from '../../core/testing/reportLogs.ts';
import { testScenario } from '../../core/testing/scenarios.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { AssertionCard } from '../replay/Pins.tsx';
import { DialogueList } from './DialogueList.tsx';

const announced: Draft = {
  type: 'scenario',
  source: 'hand-written',
  scenario: testScenario({
    id: 'tau',
    policies: [],
    expected: {
      assertions: [{ text: 'The agent refuses.' }, { text: 'The agent offers a return.' }],
    },
  }),
};

describe('natural-language assertions on screen', () => {
  it('lists, per dialogue, the assertions the judge found not to hold and those not judged', () => {
    const report = reportOf(
      stamp([
        { ...start, models: { agent: 'a', judge: 'j' } },
        announced,
        ...dialogue('tau#1', 'tau', 0, { end: 'user-done', findings: [ok('c1')] }),
        {
          type: 'assertion',
          dialogue: 'tau#1',
          id: 'expected.assertions[0]',
          text: 'The agent refuses.',
          met: false,
          reason: 'It cancelled.',
          evidence: '',
        },
      ]),
      POLICIES,
    );
    renderWithStore(<DialogueList report={report} live={false} run="r1" />);
    const row = within(screen.getByRole('table', { name: 'Dialogues' })).getAllByRole('row')[1];
    expect(row?.textContent).toContain(
      'judge’s opinion, assertion not held: “The agent refuses.” · 1 assertion not judged',
    );
  });

  it('never shows an assertion that was not judged as held', () => {
    render(
      <AssertionCard
        assertion={{
          id: 'expected.assertions[0]',
          text: 'The agent refuses.',
          policy: undefined,
          opinion: 'not-judged',
          turn: undefined,
          reason: 'Not judged: the run had no judge model.',
          evidence: '',
        }}
      />,
    );
    const card = screen.getByTestId('assertion');
    expect(card.textContent).toContain('Assertion: not judged');
    expect(card.textContent).not.toContain('holds');
    expect(card.textContent).toContain('Not judged: the run had no judge model.');
  });
});
