import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { BudgetNotice } from './BudgetNotice.tsx';

describe('BudgetNotice', () => {
  it('says before a run which models a dollar budget cannot count, and what limits them', () => {
    const { store } = renderWithStore(<BudgetNotice />);
    // Every role on the model in this browser: free, nothing to say.
    expect(screen.queryByTestId('budget-notice')).toBeNull();
    act(() => {
      const id = store.getState().addEndpoint({
        kind: 'openai',
        label: 'OpenRouter',
        baseUrl: 'https://openrouter.ai/api/v1',
        defaultModel: 'openai/gpt-4.1',
      });
      store.getState().setRoleModel('agent', { engine: id, model: 'openai/gpt-4.1' });
    });
    expect(screen.getByTestId('budget-notice').textContent).toBe(
      '“openai/gpt-4.1” has no price: the $1 budget cannot count its calls. Set a token budget to limit them, or add a price under Models in the header.',
    );
    act(() => {
      store.getState().setRunSettings({ budgetTokens: 200_000 });
    });
    expect(screen.getByTestId('budget-notice').textContent).toMatch(
      /The 200,000-token budget limits them\.$/,
    );
    act(() => {
      store.getState().setPrice('openai/gpt-4.1', { inputPerMillion: 2, outputPerMillion: 8 });
    });
    expect(screen.queryByTestId('budget-notice')).toBeNull();
  });
});
