import type { NodeChange } from '@xyflow/react';
import { useCallback, useState } from 'react';
import { useAppStoreApi } from '../../state/useAppStore.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';

type Move = Extract<NodeChange<PolicyFlowNode>, { type: 'position' }>;

/**
 * A local copy of the nodes, so dragging is smooth, rebuilt whenever `derived` changes. Its
 * `onNodesChange` moves the copy, keeps where a drag ended (or arrow keys moved a node) in the
 * project, and hands a selected node to the store.
 */
export function useDraggedNodes(derived: PolicyFlowNode[]) {
  const store = useAppStoreApi();
  const [local, setLocal] = useState({ from: derived, nodes: derived });
  if (local.from !== derived) setLocal({ from: derived, nodes: derived });
  const nodes = local.from === derived ? local.nodes : derived;

  const onNodesChange = useCallback(
    (changes: NodeChange<PolicyFlowNode>[]) => {
      // Only moves matter here: sizes are fixed, and selection lives in the store. Other changes
      // (React Flow measuring nodes as they scroll into view) must not copy a thousand nodes.
      const moves = changes.filter(
        (c): c is Move => c.type === 'position' && c.position !== undefined,
      );
      if (moves.length > 0) {
        setLocal(({ from, nodes: current }) => {
          const byId = new Map(moves.map((c) => [c.id, c.position]));
          return {
            from,
            nodes: current.map((n) => {
              const position = byId.get(n.id);
              return position ? { ...n, position } : n;
            }),
          };
        });
        const placed: Record<string, { x: number; y: number }> = {};
        for (const move of moves) {
          if (!move.dragging && move.position) placed[move.id] = move.position;
        }
        // Keep where the user put them (the drag ended, or arrow keys moved them).
        if (Object.keys(placed).length > 0) store.getState().placePolicies(placed);
      }
      for (const change of changes) {
        if (change.type === 'select' && change.selected) store.getState().selectPolicy(change.id);
      }
    },
    [store],
  );

  return { nodes, onNodesChange };
}
