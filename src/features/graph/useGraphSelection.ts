import type { Edge, Node } from '@xyflow/react';
import { useReactFlow } from '@xyflow/react';
import type { MouseEvent } from 'react';
import { useCallback, useState } from 'react';
import { useAppStoreApi } from '../../state/useAppStore.ts';
import { graphSelectors } from '../../state/graphSelectors.ts';
import { policyNear } from './GraphPicture.tsx';
import type { PolicyFlowNode } from './PolicyNode.tsx';

/**
 * What a click on the canvas selects: a policy (kept in the store, and shown in the editor) or a
 * relation (kept here); either opens the details panel. `pictured` are the nodes drawn into the
 * picture, if any: a click on the pane then picks the policy nearest to it.
 */
export function useGraphSelection(pictured: readonly PolicyFlowNode[] | null) {
  const store = useAppStoreApi();
  const flow = useReactFlow();
  const [selectedEdge, selectEdge] = useState<string | null>(null);

  const showInEditor = useCallback(
    (id: string) => {
      const span = graphSelectors(store)
        .selectPolicySpans(store.getState())
        .find((s) => s.id === id);
      if (!span) return;
      const text = store.getState().project.files['policies.yaml'];
      const before = text.slice(0, span.idAt);
      const line = before.split('\n').length;
      const column = span.idAt - before.lastIndexOf('\n');
      store.getState().revealAt('policies.yaml', line, column, false);
    },
    [store],
  );

  return {
    selectedEdge,
    selectEdge,
    showInEditor,
    onNodeClick: (_: MouseEvent, node: Node) => {
      selectEdge(null);
      store.getState().selectPolicy(node.id);
      store.getState().setDetailsOpen(true);
      showInEditor(node.id);
    },
    onEdgeClick: (_: MouseEvent, edge: Edge) => {
      selectEdge(edge.id);
      store.getState().selectPolicy(null);
      store.getState().setDetailsOpen(true);
    },
    onPaneClick: (event: MouseEvent) => {
      selectEdge(null);
      const hit = pictured
        ? policyNear(pictured, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }))
        : undefined;
      store.getState().selectPolicy(hit ?? null);
      if (hit) {
        store.getState().setDetailsOpen(true);
        showInEditor(hit);
      }
    },
    /** Closes the details; the policy stays selected. */
    close: () => {
      selectEdge(null);
      store.getState().setDetailsOpen(false);
    },
  };
}
