import { useNodesInitialized, useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { fitViewport } from '../../core/index.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { FIT_CLEAR, rectsWithin } from './keepClear.ts';

/** Room around the fitted nodes, in pixels: for their labels. */
const FIT_MARGIN = 24;
/** A fitted node is never drawn larger than this radius, in pixels: small graphs stop here. */
export const FIT_MAX_RADIUS = 24;
const FIT_MIN_ZOOM = 0.05;
const FIT_MAX_ZOOM = 2;

/**
 * Keeps the whole graph in view until the user pans or zooms: after the first layout, when the
 * positions change, when the pane is resized (maximized, restored, dragged) or the legend folds;
 * and after a filter changes which policies show (`shown`), whatever the user did. Fitting keeps
 * nodes clear of the legend, the controls and the minimap (see `fitViewport`). Put `host` on the
 * element around the canvas, pass `onMoveStart` to React Flow and `fit` to its fit-view control.
 */
export function useAutoFit(nodes: readonly PolicyFlowNode[], positions: unknown, shown: string) {
  const flow = useReactFlow();
  const untouched = useRef(true);
  const initialised = useNodesInitialized();
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(nodes);
  useLayoutEffect(() => {
    latest.current = nodes;
  }, [nodes]);

  const fit = useCallback(() => {
    const element = host.current;
    if (!element) return;
    const viewport = fitViewport(
      latest.current.map((n) => ({ x: n.position.x, y: n.position.y, r: n.data.radius })),
      {
        canvas: { x: 0, y: 0, width: element.clientWidth, height: element.clientHeight },
        obstacles: rectsWithin(element, FIT_CLEAR),
        margin: FIT_MARGIN,
        maxScreenRadius: FIT_MAX_RADIUS,
        minZoom: FIT_MIN_ZOOM,
        maxZoom: FIT_MAX_ZOOM,
      },
    );
    if (viewport) void flow.setViewport(viewport);
  }, [flow]);

  useEffect(() => {
    if (initialised && untouched.current) fit();
  }, [initialised, positions, fit]);

  // A filter that changes which policies show fits them again, even after the user moved.
  const lastShown = useRef(shown);
  useEffect(() => {
    if (lastShown.current === shown) return;
    lastShown.current = shown;
    untouched.current = true;
    fit();
  }, [shown, fit]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (untouched.current) fit();
    });
    observer.observe(element);
    // The legend folding or unfolding changes the room left for the graph.
    for (const child of element.querySelectorAll(FIT_CLEAR.join(','))) observer.observe(child);
    return () => {
      observer.disconnect();
    };
  }, [fit]);
  // Only a person's pan or zoom comes with an event; fitting's own moves do not.
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event) untouched.current = false;
  }, []);
  return { host, onMoveStart, fit };
}
