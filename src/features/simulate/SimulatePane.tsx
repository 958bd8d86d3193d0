import { Suspense } from 'react';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import './simulate.css';

const SimulateTabs = lazyWithRetry(() => import('./SimulateTabs.tsx').then((m) => m.SimulateTabs));

/**
 * The Simulate pane: run the project's scenarios against the agent and read the report, or play
 * one dialogue by hand.
 */
export function SimulatePane() {
  const revealed = useRevealed('simulate');
  return (
    <div className="simulate">
      {revealed && (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <SimulateTabs />
        </Suspense>
      )}
    </div>
  );
}
