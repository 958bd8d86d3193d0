import { Suspense } from 'react';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import './share.css';

const ShareView = lazyWithRetry(() => import('./ShareView.tsx').then((m) => m.ShareView));

/** The Share pane: a link to the project, files in and out, runs to pass on. */
export function SharePane() {
  const revealed = useRevealed('share');
  return (
    <div className="share">
      {revealed && (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <ShareView />
        </Suspense>
      )}
    </div>
  );
}
