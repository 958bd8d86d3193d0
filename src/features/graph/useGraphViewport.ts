import type { FitViewOptions, Viewport } from '@xyflow/react';
import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { useAutoFit } from './useAutoFit.ts';

// React Flow's own fit (its control's first step, before `fit` corrects it to keep off the legend).
export const FIT: FitViewOptions = { padding: 0.12, includeHiddenNodes: true, maxZoom: 1.25 };
// Start zoomed out, so a large graph's first frame is the picture, not a thousand elements.
export const START: Viewport = { x: 0, y: 0, zoom: 0.5 };

/**
 * Where the canvas looks: the whole graph (the drawn `nodes`) until the user pans or zooms, and
 * again after a filter changes which policies show (see `useAutoFit`), and a policy chosen
 * outside the graph (the editor's cursor, the search, a link) brought to the centre. Put `host`
 * on the element around the canvas, pass `onMoveStart` to React Flow and `fit` to its controls.
 */
export function useGraphViewport(nodes: readonly PolicyFlowNode[]) {
  const flow = useReactFlow();
  const selected = useAppStore((s) => s.selectedPolicy);
  const positions = useAppStore((s) => s.graphLayout.positions);
  // Which policies the filters let through: a change fits the view to them again.
  const shown = useAppStore(
    (s) =>
      `${s.graphFilters.tool ?? ''}\u0000${s.graphFilters.hiddenCategories.join('\u0000')}\u0000${s.focusedPolicy ?? ''}`,
  );

  useEffect(() => {
    if (!selected?.centre) return;
    const node = flow.getInternalNode(selected.id);
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    void flow.setCenter(x, y, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  }, [selected, flow]);

  return useAutoFit(nodes, positions, shown);
}
