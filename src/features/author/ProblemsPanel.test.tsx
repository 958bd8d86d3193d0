import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../core/index.ts';
import { MINI_FILES } from '../../core/testing/miniProject.ts';
import { AppStoreProvider } from '../../state/AppStoreProvider.tsx';
import type { AppServices } from '../../state/createAppStore.ts';
import { createAppStore } from '../../state/createAppStore.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { testServices } from '../../test/services.ts';
import { PROBLEMS_PAGE, ProblemsPanel } from './ProblemsPanel.tsx';

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

  it('draws a long list a page at a time, saying how many are not shown', async () => {
    // Each of 260 guard rules names an unknown policy: more problems than a page.
    const { store } = renderWithStore(<ProblemsPanel />);
    const rule = (i: number) =>
      `      - id: r${i}\n        policy: nowhere-${i}\n        decision: allow\n`;
    act(() => {
      store.getState().setFiles({
        ...MINI_FILES,
        'rules.yaml': `guards:\n  get_user:\n    rules:\n${Array.from({ length: 260 }, (_, i) => rule(i)).join('')}`,
      });
    });
    const panel = screen.getByRole('region', { name: 'Problems' });
    // Queried by class, not by role and name: naming 500 rows is seconds of jsdom work per look.
    const moreButton = () => panel.querySelector<HTMLButtonElement>('button.problems-more');
    await waitFor(() => {
      expect(moreButton()).not.toBeNull();
    });
    const total = (store.getState().analysis?.diagnostics ?? []).filter(
      (d) => d.severity !== 'info',
    ).length;
    expect(total).toBeGreaterThan(PROBLEMS_PAGE);
    const drawn = () =>
      panel.querySelectorAll('button.problem:not(.problems-more):not(.problems-notes)').length;
    expect(drawn()).toBe(PROBLEMS_PAGE);
    // Fewer than a page are left: the button offers exactly those, and one click draws them.
    const hidden = total - PROBLEMS_PAGE;
    expect(hidden).toBeLessThan(PROBLEMS_PAGE);
    expect(moreButton()?.textContent).toBe(`Show ${hidden} more problems (${hidden} not shown)`);
    act(() => {
      moreButton()?.click();
    });
    expect(drawn()).toBe(total);
    expect(moreButton()).toBeNull();
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
