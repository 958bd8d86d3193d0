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
