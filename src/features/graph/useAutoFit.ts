import type { FitViewOptions } from '@xyflow/react';
import { useNodesInitialized, useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useRef } from 'react';

/**
 * Keeps the whole graph in view until the user pans or zooms: after the first layout, when the
 * positions change, and when the pane is resized (maximized, restored, dragged). Put `host` on the
 * element around the canvas and pass `onMoveStart` to React Flow.
 */
export function useAutoFit(options: FitViewOptions, positions: unknown) {
  const flow = useReactFlow();
  const untouched = useRef(true);
  const initialised = useNodesInitialized();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (initialised && untouched.current) void flow.fitView(options);
  }, [initialised, positions, flow, options]);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (untouched.current) void flow.fitView(options);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [flow, options]);
  // Only a person's pan or zoom comes with an event; fitView's own moves do not.
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event) untouched.current = false;
  }, []);
  return { host, onMoveStart };
}
