import { ViewportPortal } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { GraphEdge } from '../../core/index.ts';
import { edgeStyle, edgeWidth, themeColors } from '../../core/index.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';

/** Past this many edges the picture draws them: thousands of SVG paths make every frame slow. */
export const EDGE_SVG_LIMIT = 1_500;
/**
 * Past this many policies, a zoomed-out view draws them into the picture too, and real nodes
 * appear once the view is close enough that only some are on screen.
 */
export const NODE_DOM_LIMIT = 400;

/** The largest side of the picture, in device pixels. */
const MAX_SIDE = 2_048;

type Positions = ReadonlyMap<string, { x: number; y: number }>;

/**
 * A large graph drawn once into one canvas inside React Flow's viewport, under any real nodes:
 * panning and zooming move the picture instead of repainting thousands of elements. Edges always;
 * nodes too when `nodes` is given (clicks then find the nearest policy, see `policyNear`).
 */
export const GraphPicture = memo(function GraphPicture({
  edges,
  nodes,
  positions,
  theme,
}: {
  edges: readonly GraphEdge[];
  nodes: readonly PolicyFlowNode[] | null;
  positions: Positions;
  theme: 'light' | 'dark';
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const box = useMemo(() => {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const { x, y } of positions.values()) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    if (minX > maxX) return null;
    const pad = 30;
    const width = maxX - minX + 2 * pad;
    const height = maxY - minY + 2 * pad;
    const scale = Math.min(2, MAX_SIDE / Math.max(width, height));
    return { x: minX - pad, y: minY - pad, width, height, scale };
  }, [positions]);

  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context || !box) return;
    canvas.width = Math.ceil(box.width * box.scale);
    canvas.height = Math.ceil(box.height * box.scale);
    context.setTransform(box.scale, 0, 0, box.scale, -box.x * box.scale, -box.y * box.scale);
    drawEdges(context, edges, positions, theme);
    if (nodes) drawNodes(context, nodes, theme);
  }, [edges, nodes, positions, theme, box]);

  if (!box) return null;
  return (
    <ViewportPortal>
      <canvas
        ref={ref}
        className="graph-picture"
        aria-hidden="true"
        style={{ left: box.x, top: box.y, width: box.width, height: box.height }}
      />
    </ViewportPortal>
  );
});

function drawEdges(
  context: CanvasRenderingContext2D,
  edges: readonly GraphEdge[],
  positions: Positions,
  theme: 'light' | 'dark',
) {
  // One path per look (origin and width): a few strokes instead of thousands.
  const groups = new Map<string, GraphEdge[]>();
  for (const edge of edges) {
    const key = `${edge.origin}:${edgeWidth(edge.weight)}`;
    const group = groups.get(key);
    if (group) group.push(edge);
    else groups.set(key, [edge]);
  }
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    const { color, opacity, dash } = edgeStyle(first.origin, theme);
    context.strokeStyle = color;
    context.globalAlpha = opacity;
    context.lineWidth = edgeWidth(first.weight);
    context.setLineDash(dash ? dash.split(' ').map(Number) : []);
    context.beginPath();
    for (const edge of group) {
      const from = positions.get(edge.source);
      const to = positions.get(edge.target);
      if (!from || !to) continue;
      context.moveTo(from.x, from.y);
      context.lineTo(to.x, to.y);
    }
    context.stroke();
  }
  context.setLineDash([]);
  context.globalAlpha = 1;
}

// The rings the real nodes get from the theme's focus and warning colours (theme.css).
const SELECTED = { light: '#4c51d9', dark: '#8e92ff' } as const;
const MATCHED = { light: '#a15c00', dark: '#f0b45a' } as const;

function drawNodes(
  context: CanvasRenderingContext2D,
  nodes: readonly PolicyFlowNode[],
  theme: 'light' | 'dark',
) {
  for (const node of nodes) {
    const { color, radius, dimmed } = node.data;
    context.globalAlpha = dimmed ? 0.25 : 1;
    context.beginPath();
    context.arc(node.position.x, node.position.y, radius, 0, Math.PI * 2);
    context.fillStyle = color;
    context.fill();
    context.lineWidth = 2;
    context.strokeStyle = themeColors(theme).nodeStroke;
    context.stroke();
  }
  context.globalAlpha = 1;
  // Picked-out policies get a ring, so they stand out from far away (their ids: `GraphLabels`).
  for (const node of nodes) {
    if (!node.selected && !node.data.matched) continue;
    const { radius } = node.data;
    context.beginPath();
    context.arc(node.position.x, node.position.y, radius + 4, 0, Math.PI * 2);
    context.lineWidth = 3;
    context.strokeStyle = node.selected ? SELECTED[theme] : MATCHED[theme];
    context.stroke();
  }
}

/** The policy drawn under a point of the picture (in flow coordinates), if any. */
export function policyNear(
  nodes: readonly PolicyFlowNode[],
  point: { x: number; y: number },
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const node of nodes) {
    const distance = Math.hypot(node.position.x - point.x, node.position.y - point.y);
    if (distance <= node.data.radius + 4 && distance < bestDistance) {
      best = node.id;
      bestDistance = distance;
    }
  }
  return best;
}
