import { fireEvent, screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyWithRetry } from '../ui/lazyWithRetry.tsx';
import { PaneErrorBoundary } from './PaneErrorBoundary.tsx';

describe('PaneErrorBoundary with lazyWithRetry', () => {
  it('reports a failed download once, and downloads again only when asked', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let attempts = 0;
    const Lazy = lazyWithRetry(() => {
      attempts += 1;
      return attempts === 1
        ? Promise.reject(new Error('Failed to fetch dynamically imported module: /assets/x.js'))
        : Promise.resolve(() => <p>Loaded</p>);
    });
    render(
      <PaneErrorBoundary title="Graph">
        <Suspense fallback={<p>Loading</p>}>
          <Lazy />
        </Suspense>
      </PaneErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The Graph pane stopped working');
    expect(alert.textContent).toContain('could not be downloaded');
    expect(attempts).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Loaded')).toBeTruthy();
    expect(attempts).toBe(2);
  });
});
