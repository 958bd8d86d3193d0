import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore } from '../test/renderWithStore.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';

describe('ThemeSwitch', () => {
  it('checks the saved choice and lets only it take Tab focus', () => {
    renderWithStore(<ThemeSwitch />, { 'policylab.theme': 'dark' });
    const dark = screen.getByRole('radio', { name: 'Dark theme' });
    expect(dark.getAttribute('aria-checked')).toBe('true');
    expect(dark.tabIndex).toBe(0);
    expect(screen.getByRole('radio', { name: 'Light theme' }).tabIndex).toBe(-1);
  });

  it('picks a theme by click and by arrow key, and remembers it', () => {
    const { preferences } = renderWithStore(<ThemeSwitch />);
    fireEvent.click(screen.getByRole('radio', { name: 'Light theme' }));
    expect(preferences.getItem('policylab.theme')).toBe('light');
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Light theme' }), { key: 'ArrowRight' });
    expect(preferences.getItem('policylab.theme')).toBe('dark');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Dark theme' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(preferences.getItem('policylab.theme')).toBe('system');
  });
});
