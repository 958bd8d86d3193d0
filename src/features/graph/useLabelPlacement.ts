import { useStoreApi } from '@xyflow/react';
import type { RefObject } from 'react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { GraphEdge, LabelNode, PlacedLabel, Rect } from '../../core/index.ts';
import { LABEL_FONT_FAMILY, placeLabels } from '../../core/index.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { LABEL_CLEAR, rectsWithin } from './keepClear.ts';

/** The labels' text size and line height on screen, in pixels. */
export const LABEL_FONT_SIZE = 11;
export const LABEL_LINE_HEIGHT = 14;
const LABEL_MAX_WIDTH = 180;
const LABEL_PADDING = 2;
/** Labels are placed again once the view has stood still this long. */
const SETTLE_MS = 120;

/** Where the canvas looked when labels were last placed, and what covered it. */
interface Frame {
  readonly transform: readonly [number, number, number];
  readonly canvas: Rect;
  readonly clear: readonly Rect[];
}

/** What the canvas's labels depend on besides the view. */
export interface LabelInputs {
  readonly nodes: readonly PolicyFlowNode[];
  readonly edges: readonly GraphEdge[];
  readonly hovered: string | null;
  /** Failure rate per policy (0 to 1), from results; failing policies' labels come first. */
  readonly failures?: ReadonlyMap<string, number> | undefined;
  /** The element the canvas fills; labels stay inside it and off what floats over it. */
  readonly host: RefObject<HTMLDivElement | null>;
}

/**
 * The labels the canvas shows (see `placeLabels`), in pixels from the host's top-left corner.
 * They are placed for the view as it stands; while the view moves, `layer` (put it on the
 * element holding the labels) is moved with it by one CSS transform, and the labels are placed
 * again once the view settles, so panning costs no placement and no re-render.
 */
export function useLabelPlacement({ nodes, edges, hovered, failures, host }: LabelInputs) {
  const store = useStoreApi();
  const layer = useRef<HTMLDivElement>(null);
  const [frame, setFrame] = useState<Frame | null>(null);
  const placedAt = useRef<readonly [number, number, number] | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const measure = () => {
      setFrame({
        transform: store.getState().transform,
        canvas: { x: 0, y: 0, width: element.clientWidth, height: element.clientHeight },
        clear: rectsWithin(element, LABEL_CLEAR),
      });
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.transform === previous.transform) return;
      const from = placedAt.current;
      if (from) {
        // Carry the placed labels along: screen = placed × k + (t − t₀ × k), k = z / z₀.
        const k = state.transform[2] / from[2];
        const dx = state.transform[0] - from[0] * k;
        const dy = state.transform[1] - from[1] * k;
        moveLayer(layer.current, `translate(${dx}px, ${dy}px) scale(${k})`);
      }
      clearTimeout(timer);
      timer = setTimeout(measure, SETTLE_MS);
    });
    // The canvas resized, or something over it came, went or changed size.
    const resized = new ResizeObserver(measure);
    const watch = () => {
      resized.disconnect();
      resized.observe(element);
      for (const child of element.querySelectorAll(LABEL_CLEAR.join(','))) resized.observe(child);
    };
    const changed = new MutationObserver(() => {
      watch();
      measure();
    });
    changed.observe(element, { childList: true });
    const flow = element.querySelector('.react-flow');
    if (flow) changed.observe(flow, { childList: true });
    watch();
    measure();
    return () => {
      unsubscribe();
      clearTimeout(timer);
      resized.disconnect();
      changed.disconnect();
    };
  }, [store, host]);

  const labels = useMemo(
    () => (frame ? placeAll(nodes, edges, hovered, failures, frame) : []),
    [nodes, edges, hovered, failures, frame],
  );

  // New labels are drawn where the view is now: drop the transform that carried the old ones.
  useLayoutEffect(() => {
    placedAt.current = frame?.transform ?? null;
    moveLayer(layer.current, '');
  }, [labels, frame]);

  return { labels, layer };
}

function moveLayer(element: HTMLElement | null, transform: string) {
  if (element) element.style.transform = transform;
}

function placeAll(
  nodes: readonly PolicyFlowNode[],
  edges: readonly GraphEdge[],
  hovered: string | null,
  failures: ReadonlyMap<string, number> | undefined,
  frame: Frame,
): PlacedLabel[] {
  const [tx, ty, zoom] = frame.transform;
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const input: LabelNode[] = nodes.map((n) => ({
    id: n.id,
    x: n.position.x * zoom + tx,
    y: n.position.y * zoom + ty,
    r: n.data.radius * zoom,
    text: n.id,
    importance: {
      selected: n.selected === true,
      hovered: n.id === hovered,
      matched: n.data.matched,
      failure: n.data.replay === 'breached' ? 1 : (failures?.get(n.id) ?? 0),
      degree: degree.get(n.id) ?? 0,
      challenge: n.data.policy.challenge,
    },
  }));
  return placeLabels(input, {
    canvas: frame.canvas,
    keepClear: frame.clear,
    measure: measureText,
    lineHeight: LABEL_LINE_HEIGHT,
    maxWidth: LABEL_MAX_WIDTH,
    padding: LABEL_PADDING,
  });
}

const widths = new Map<string, number>();
let context: CanvasRenderingContext2D | null | undefined;

/** A text's width in the labels' font, measured once by a canvas and remembered. */
function measureText(text: string): number {
  const known = widths.get(text);
  if (known !== undefined) return known;
  context ??= document.createElement('canvas').getContext('2d');
  if (context) context.font = `${LABEL_FONT_SIZE}px ${LABEL_FONT_FAMILY}`;
  // Without a canvas (jsdom), a wide guess: labels may be fewer, never overlapping.
  const width = context ? context.measureText(text).width : text.length * LABEL_FONT_SIZE * 0.7;
  widths.set(text, width);
  return width;
}
