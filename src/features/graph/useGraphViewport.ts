import type { FitViewOptions, Viewport } from '@xyflow/react';
import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { useAutoFit } from './useAutoFit.ts';

// Nodes drawn into the picture are hidden from React Flow, but still count for fitting the view.
// A small graph is not blown up past a little over life size: its labels stay on screen.
export const FIT: FitViewOptions = { padding: 0.12, includeHiddenNodes: true, maxZoom: 1.25 };
// Start zoomed out, so a large graph's first frame is the picture, not a thousand elements.
export const START: Viewport = { x: 0, y: 0, zoom: 0.5 };

/**
 * Where the canvas looks: the whole graph until the user pans or zooms (see `useAutoFit`), and
 * a policy chosen outside the graph (the editor's cursor, the search, a link) brought to the
 * centre. Put `host` on the element around the canvas and pass `onMoveStart` to React Flow.
 */
export function useGraphViewport() {
  const flow = useReactFlow();
  const selected = useAppStore((s) => s.selectedPolicy);
  const positions = useAppStore((s) => s.graphLayout.positions);

  useEffect(() => {
    if (!selected?.centre) return;
    const node = flow.getInternalNode(selected.id);
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    void flow.setCenter(x, y, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  }, [selected, flow]);

  return useAutoFit(FIT, positions);
}
