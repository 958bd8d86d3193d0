import { Suspense } from 'react';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import './graph.css';

const GraphCanvas = lazyWithRetry(() => import('./GraphCanvas.tsx').then((m) => m.GraphCanvas));

/** The Graph pane: the policies as a weighted graph, drawn by React Flow once the pane shows. */
export function GraphPane() {
  const revealed = useRevealed('graph');
  return (
    <div className="graph">
      {revealed && (
        <Suspense fallback={<p className="loading">Loading the graph…</p>}>
          <GraphCanvas />
        </Suspense>
      )}
    </div>
  );
}
