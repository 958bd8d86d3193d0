import { Suspense } from 'react';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import './simulate.css';

const SimulateView = lazyWithRetry(() => import('./SimulateView.tsx').then((m) => m.SimulateView));

/** The Simulate pane: run the project's scenarios against the agent and read the report. */
export function SimulatePane() {
  const revealed = useRevealed('simulate');
  return (
    <div className="simulate">
      {revealed && (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <SimulateView />
        </Suspense>
      )}
    </div>
  );
}
