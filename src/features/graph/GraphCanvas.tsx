import { Background, Controls, ReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';

/**
 * The graph canvas. Drawing policies as nodes comes with the graph issue; until then it says what
 * the project holds, and the canvas itself (pan, zoom, controls) is the real one.
 */
export function GraphCanvas() {
  const theme = useAppStore(selectEffectiveTheme);
  const policies = useAppStore((s) => s.analysis?.model.policies.length ?? 0);
  const relations = useAppStore((s) => s.analysis?.model.relations.length ?? 0);
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
        {policies === 0 ? (
          <EmptyState icon="graph" title="No policies to draw">
            <p>
              Each policy in <code>policies.yaml</code> becomes a node, coloured by category and
              sized by challenge; relations between policies become weighted edges.
            </p>
          </EmptyState>
        ) : (
          <EmptyState
            icon="graph"
            title={`${plural(policies, 'policy', 'policies')}, ${plural(relations, 'relation', 'relations')}`}
          >
            <p>
              The project&apos;s policies are read and checked. Drawing them as a graph, coloured by
              category and sized by challenge, is not available yet.
            </p>
          </EmptyState>
        )}
      </div>
    </div>
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
