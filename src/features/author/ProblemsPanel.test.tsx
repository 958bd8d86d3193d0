import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../core/index.ts';
import { MINI_FILES } from '../../core/testing/miniProject.ts';
import { AppStoreProvider } from '../../state/AppStoreProvider.tsx';
import type { AppServices } from '../../state/createAppStore.ts';
import { createAppStore } from '../../state/createAppStore.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { testServices } from '../../test/services.ts';
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

describe('ProblemsPanel before the analysis of the current text', () => {
  it('says "Checking…" until the analysis arrives, never "No problems" before it', async () => {
    // Each analysis is held until the test lets it go.
    const held: (() => void)[] = [];
    const store = createAppStore(
      testServices({
        analyze: (project): ReturnType<AppServices['analyze']> =>
          new Promise((resolve) => {
            held.push(() => {
              resolve(analyzeProject(project));
            });
          }),
      }),
    );
    render(
      <AppStoreProvider store={store}>
        <ProblemsPanel />
      </AppStoreProvider>,
    );
    const panel = screen.getByRole('region', { name: 'Problems' });
    expect(rows(panel)).toEqual(['Checking…']);
    expect(panel.getAttribute('aria-busy')).toBe('true');
    await act(async () => {
      held.shift()?.();
      await Promise.resolve();
    });
    expect(rows(panel)).toEqual(['No problems in this project.']);
    expect(panel.getAttribute('aria-busy')).toBe('false');

    // An edit makes the shown analysis stale until its own arrives.
    act(() => {
      store.getState().setFiles({ ...MINI_FILES, 'agent.md': `${MINI_FILES['agent.md']}\nMore.` });
    });
    expect(rows(panel)).toEqual(['Checking…']);
  });
});
