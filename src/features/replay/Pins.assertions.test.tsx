import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AssertionOpinion } from '../../core/index.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { AssertionCard } from './Pins.tsx';

const judged: AssertionOpinion = {
  id: 'expected.assertions[1]',
  text: 'The agent offers a return.',
  policy: undefined,
  opinion: 'not-met',
  turn: 1,
  reason: 'It never did.',
  evidence: '',
};

const review = () => screen.getByRole('group', { name: /^Your review of the judge’s opinion/ });

describe('marking the judge’s opinion of an assertion', () => {
  it('marks it right or wrong by the assertion’s id; pressing the pressed one takes it back', () => {
    const { store } = renderWithStore(<AssertionCard assertion={judged} mark={false} />);
    const markReplay = vi.fn(() => Promise.resolve());
    act(() => {
      store.setState({ markReplay });
    });
    const wrong = within(review()).getByRole('button', { name: 'Wrong' });
    expect(wrong.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('assertion').textContent).toContain('You marked the judge wrong.');
    fireEvent.click(within(review()).getByRole('button', { name: 'Right' }));
    fireEvent.click(wrong);
    expect(markReplay.mock.calls).toEqual([
      [{ kind: 'assertion', id: 'expected.assertions[1]' }, true],
      [{ kind: 'assertion', id: 'expected.assertions[1]' }, null],
    ]);
  });

  it('offers no mark for an assertion the judge never gave an opinion on', () => {
    renderWithStore(
      <AssertionCard assertion={{ ...judged, opinion: 'not-judged', reason: 'Not judged.' }} />,
    );
    expect(screen.queryByRole('group', { name: /^Your review/ })).toBeNull();
  });

  it('offers no mark on the read-only page', () => {
    const { store } = renderWithStore(<AssertionCard assertion={judged} />);
    expect(review()).toBeTruthy();
    act(() => {
      store.setState({ readOnly: true });
    });
    expect(screen.queryByRole('group', { name: /^Your review/ })).toBeNull();
  });
});
