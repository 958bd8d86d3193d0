import { Suspense } from 'react';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import './replay.css';

const ReplayView = lazyWithRetry(() => import('./ReplayView.tsx').then((m) => m.ReplayView));

/** The Replay pane: any dialogue of any run, stepped through turn by turn. */
export function ReplayPane() {
  const revealed = useRevealed('replay');
  return (
    <div className="replay">
      {revealed && (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <ReplayView />
        </Suspense>
      )}
    </div>
  );
}
