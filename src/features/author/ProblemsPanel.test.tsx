import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MINI_FILES } from '../../core/testing/miniProject.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { ProblemsPanel } from './ProblemsPanel.tsx';

/** The panel over the mini project with its guard rule's policy changed to `policy`. */
async function panelWithRulePolicy(policy: string) {
  const { store } = renderWithStore(<ProblemsPanel />);
  act(() => {
    store.getState().setFiles({
      ...MINI_FILES,
      'rules.yaml': MINI_FILES['rules.yaml'].replace(
        'policy: verify-identity',
        `policy: ${policy}`,
      ),
    });
  });
  const panel = screen.getByRole('region', { name: 'Problems' });
  await within(panel).findByRole('button', { name: /Show 1 note/ });
  return panel;
}

const rows = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('ProblemsPanel', () => {
  it('lists problems first and folds the notes under one line until asked', async () => {
    // The misspelt policy is an error, and it leaves verify-identity to the judge (a note).
    const panel = await panelWithRulePolicy('verify-identiti');
    expect(rows(panel)).toEqual([
      expect.stringContaining('Unknown policy "verify-identiti"'),
      'Show 1 note',
    ]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Show 1 note' }));
    expect(rows(panel)).toEqual([
      expect.stringContaining('Unknown policy "verify-identiti"'),
      'Hide 1 note',
      expect.stringContaining('Only a judge model can report on "verify-identity"'),
    ]);
  });

  it('says there are no problems when there are only notes', async () => {
    const panel = await panelWithRulePolicy('refund-window');
    expect(rows(panel)).toEqual(['No problems in this project.', 'Show 1 note']);
  });
});
