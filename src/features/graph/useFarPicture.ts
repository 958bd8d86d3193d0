import { useStore } from '@xyflow/react';
import { useMemo, useState } from 'react';
import type { GraphEdge } from '../../core/index.ts';
import { EDGE_SVG_LIMIT, NODE_DOM_LIMIT } from './GraphPicture.tsx';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { positionsOf } from './flowElements.ts';

/**
 * When the canvas draws a picture instead of elements: the edges of a graph with too many of
 * them always, and the nodes of a large graph seen from afar, real nodes appearing as the view
 * closes in. `flowNodes` are the nodes React Flow gets (hidden while pictured); the picture's
 * positions follow the nodes except during a drag; pass `onNodeDragStart` and `onNodeDragStop`
 * to React Flow.
 */
export function useFarPicture(nodes: PolicyFlowNode[], edges: readonly GraphEdge[]) {
  // A boolean, so zooming re-renders the canvas only when labels (or real nodes) come or go.
  const far = useStore((s) => s.transform[2] < 0.85);
  const pictureNodes = far && nodes.length > NODE_DOM_LIMIT;
  const asPicture = pictureNodes || edges.length > EDGE_SVG_LIMIT;
  const flowNodes = useMemo(
    () => (pictureNodes ? nodes.map((n) => ({ ...n, hidden: true })) : nodes),
    [nodes, pictureNodes],
  );
  // The edge picture of a large graph is redrawn when a drag ends, not at every step of it.
  const [dragging, setDragging] = useState(false);
  const [pictured, setPictured] = useState(() => ({
    from: nodes,
    positions: positionsOf(nodes),
  }));
  if (!dragging && pictured.from !== nodes) {
    setPictured({ from: nodes, positions: positionsOf(nodes) });
  }

  return {
    far,
    pictureNodes,
    asPicture,
    flowNodes,
    positions: pictured.positions,
    onNodeDragStart: () => {
      setDragging(true);
    },
    onNodeDragStop: () => {
      setDragging(false);
    },
  };
}
