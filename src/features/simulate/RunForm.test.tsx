import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { PlaySetup } from './PlaySetup.tsx';
import { RunForm } from './RunForm.tsx';

describe('while the project is being checked before a run', () => {
  it('Run scenarios and Start playing say so, and a click does nothing', () => {
    const { store } = renderWithStore(
      <>
        <RunForm />
        <PlaySetup />
      </>,
    );
    let runs = 0;
    let games = 0;
    act(() => {
      store.setState({
        checkingProject: true,
        startRun: () => {
          runs += 1;
          return Promise.resolve();
        },
        startPlay: () => {
          games += 1;
          return Promise.resolve();
        },
      });
    });
    const checking = screen.getAllByRole('button', { name: 'Checking the project…' });
    expect(checking).toHaveLength(2);
    for (const button of checking) {
      expect(button.getAttribute('aria-disabled')).toBe('true');
      fireEvent.click(button);
    }
    expect({ runs, games }).toEqual({ runs: 0, games: 0 });

    act(() => {
      store.setState({ checkingProject: false });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Run scenarios' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start playing' }));
    expect({ runs, games }).toEqual({ runs: 1, games: 1 });
  });
});

describe('the budget fields', () => {
  it('take dollars as typed and tokens as a whole number; empty is none, a count below one is refused', () => {
    const { store } = renderWithStore(<RunForm />);
    const dollars = screen.getByLabelText('Budget $');
    const tokens = screen.getByLabelText('Budget tokens');
    const budget = () => {
      const { budgetDollars, budgetTokens } = store.getState().runSettings;
      return { budgetDollars, budgetTokens };
    };
    fireEvent.change(dollars, { target: { value: '2.5' } });
    fireEvent.change(tokens, { target: { value: '1500.4' } });
    expect(budget()).toEqual({ budgetDollars: 2.5, budgetTokens: 1500 });
    fireEvent.change(tokens, { target: { value: '0' } });
    fireEvent.change(dollars, { target: { value: '-1' } });
    expect(budget()).toEqual({ budgetDollars: 2.5, budgetTokens: 1500 });
    fireEvent.change(dollars, { target: { value: '' } });
    fireEvent.change(tokens, { target: { value: '' } });
    expect(budget()).toEqual({ budgetDollars: null, budgetTokens: null });
  });
});

describe('the count fields', () => {
  it('take a whole number, the most allowed past it, and never empty', () => {
    const { store } = renderWithStore(<RunForm />);
    const trials = screen.getByLabelText('Trials');
    const generate = screen.getByLabelText('Generate');
    const counts = () => {
      const { trials: t, generated } = store.getState().runSettings;
      return { trials: t, generated };
    };
    fireEvent.change(trials, { target: { value: '3.4' } });
    fireEvent.change(generate, { target: { value: '0' } });
    expect(counts()).toEqual({ trials: 3, generated: 0 });
    fireEvent.change(trials, { target: { value: '' } });
    fireEvent.change(generate, { target: { value: '-1' } });
    expect(counts()).toEqual({ trials: 3, generated: 0 });
    fireEvent.change(trials, { target: { value: '25' } });
    fireEvent.change(generate, { target: { value: '1e9' } });
    expect(counts()).toEqual({ trials: 20, generated: 200 });
    expect((trials as HTMLInputElement).value).toBe('20');
  });
});
