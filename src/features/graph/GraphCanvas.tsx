import { Background, Controls, ReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';

/**
 * The graph canvas. Until policies are parsed from policies.yaml it has no nodes, and says how
 * they will appear; the canvas itself (pan, zoom, controls) is the real one.
 */
export function GraphCanvas() {
  const theme = useAppStore(selectEffectiveTheme);
  return (
    <div className="graph-canvas" data-testid="graph-canvas">
      <ReactFlow
        nodes={[]}
        edges={[]}
        colorMode={theme}
        fitView
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={20} />
        <Controls showInteractive={false} />
      </ReactFlow>
      <div className="graph-overlay">
        <EmptyState icon="graph" title="No policies to draw">
          <p>
            Each policy in <code>policies.yaml</code> becomes a node, coloured by category and sized
            by challenge; relations between policies become weighted edges.
          </p>
        </EmptyState>
      </div>
    </div>
  );
}
