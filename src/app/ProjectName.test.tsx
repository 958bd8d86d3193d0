import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore } from '../test/renderWithStore.tsx';
import { ProjectName } from './ProjectName.tsx';

describe('ProjectName', () => {
  it('renames on Enter and shows the cleaned name', () => {
    const { store } = renderWithStore(<ProjectName />);
    fireEvent.click(screen.getByRole('button', { name: /Project: Untitled project/ }));
    const input = screen.getByRole('textbox', { name: 'Project name' });
    fireEvent.change(input, { target: { value: ' Refund   desk ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(store.getState().project.name).toBe('Refund desk');
    expect(screen.getByRole('button', { name: /Project: Refund desk/ })).toBeTruthy();
  });

  it('keeps the old name on Escape or when the new one is blank', () => {
    const { store } = renderWithStore(<ProjectName />);
    fireEvent.click(screen.getByRole('button', { name: /Project:/ }));
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Draft' } });
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Escape' });
    expect(store.getState().project.name).toBe('Untitled project');

    fireEvent.click(screen.getByRole('button', { name: /Project:/ }));
    fireEvent.change(screen.getByRole('textbox'), { target: { value: '   ' } });
    fireEvent.blur(screen.getByRole('textbox'));
    expect(store.getState().project.name).toBe('Untitled project');
  });
});
