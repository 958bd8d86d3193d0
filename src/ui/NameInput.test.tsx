import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NameInput } from './NameInput.tsx';

describe('NameInput', () => {
  it('reports the typed name once, even when Enter is followed by blur', () => {
    const onDone = vi.fn();
    render(<NameInput initial="Old" label="Name" onDone={onDone} />);
    const input = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: 'New' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.blur(input);
    expect(onDone.mock.calls).toEqual([['New']]);
  });

  it('reports a cancel on Escape and keeps the key from closing a dialog around it', () => {
    const onDone = vi.fn();
    const outer = vi.fn();
    render(
      <div onKeyDown={outer}>
        <NameInput initial="Old" label="Name" onDone={onDone} />
      </div>,
    );
    const input = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: 'Typo' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    fireEvent.blur(input);
    expect(onDone.mock.calls).toEqual([[null]]);
    expect(outer).not.toHaveBeenCalled();
  });
});
