import type { Rect } from './labels.ts';

/** A view of the graph: screen = flow × zoom + (x, y). */
export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

/** A node to fit: its centre and radius, in flow units. */
export interface FitNode {
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

/** How to fit the graph into the canvas. */
export interface FitOptions {
  /** The canvas, in screen pixels (usually at 0, 0). */
  readonly canvas: Rect;
  /** Things drawn over the canvas (legend, controls, minimap) that nodes must stay clear of. */
  readonly obstacles?: readonly Rect[];
  /** Room kept free around the nodes, in screen pixels: for labels, and to breathe. */
  readonly margin: number;
  /** The largest a node's radius may be drawn, in screen pixels: a small graph stops there. */
  readonly maxScreenRadius: number;
  readonly minZoom: number;
  readonly maxZoom: number;
}

type Side = 'left' | 'right' | 'top' | 'bottom';

/**
 * Clearing an obstacle may cost at most this much of the zoom (0.6: 40 %); dearer, it is left over
 * the graph, as an open legend on a small pane would otherwise squeeze the graph into a corner.
 */
const IGNORE_COST = 0.6;

/**
 * The viewport that shows every node as large as it can be, within the zoom limits and never
 * drawing a node larger than `maxScreenRadius`, centred in the canvas, with `margin` around the
 * nodes and every node clear of the obstacles that are cheap enough to clear.
 *
 * Each obstacle is cleared by giving up a strip of the canvas along one of its two nearest edges
 * (the legend in the top-left corner takes a strip on the left or one at the top), or, when that
 * would leave less than `IGNORE_COST` of the zoom the whole canvas gives, left over the graph.
 * Every choice is tried (3 per obstacle); of those that keep that much zoom, the one leaving the
 * fewest obstacles over the graph wins, then the largest zoom, so a wide, flat graph gives up a
 * strip at the top and a tall one a strip at the side. Null when there are no nodes.
 */
export function fitViewport(nodes: readonly FitNode[], options: FitOptions): Viewport | null {
  const { canvas, margin } = options;
  const finite = nodes.filter((n) => Number.isFinite(n.x) && Number.isFinite(n.y));
  if (finite.length === 0) return null;
  let [minX, minY, maxX, maxY, maxR] = [Infinity, Infinity, -Infinity, -Infinity, 0];
  for (const n of finite) {
    minX = Math.min(minX, n.x - n.r);
    minY = Math.min(minY, n.y - n.r);
    maxX = Math.max(maxX, n.x + n.r);
    maxY = Math.max(maxY, n.y + n.r);
    maxR = Math.max(maxR, n.r);
  }
  const width = maxX - minX;
  const height = maxY - minY;
  const ceiling = Math.min(options.maxZoom, maxR > 0 ? options.maxScreenRadius / maxR : Infinity);

  // The zoom that fits the nodes' box into an area, or null when the area leaves no room.
  const zoomIn = (area: Rect): number | null => {
    const w = area.width - 2 * margin;
    const h = area.height - 2 * margin;
    if (w <= 0 || h <= 0) return null;
    return Math.min(ceiling, width > 0 ? w / width : ceiling, height > 0 ? h / height : ceiling);
  };
  const obstacles = (options.obstacles ?? []).filter((o) => o.width > 0 && o.height > 0);
  // Clearing is worth it while it keeps at least IGNORE_COST of the zoom the whole canvas gives;
  // among the choices that do, the one leaving fewest obstacles over the graph, then the largest.
  const open = zoomIn(canvas);
  let best: { zoom: number; ignored: number; area: Rect } | null = null;
  for (let choice = 0; choice < 3 ** obstacles.length; choice++) {
    const { area, ignored } = clearArea(canvas, obstacles, choice);
    const zoom = zoomIn(area);
    if (zoom === null || (open !== null && zoom < open * IGNORE_COST)) continue;
    const better =
      !best || ignored < best.ignored || (ignored === best.ignored && zoom > best.zoom);
    if (better) best = { zoom, ignored, area };
  }
  // Obstacles that leave no room at all: fit the whole canvas and let them cover what they cover.
  const area = best?.area ?? canvas;
  const zoom = Math.max(options.minZoom, best?.zoom ?? zoomIn(canvas) ?? options.minZoom);
  return {
    x: area.x + area.width / 2 - ((minX + maxX) / 2) * zoom,
    y: area.y + area.height / 2 - ((minY + maxY) / 2) * zoom,
    zoom,
  };
}

/**
 * The canvas less one strip per obstacle, on the side the `choice` digits (base 3) pick for each:
 * 0 a strip at its left or right, 1 at its top or bottom, 2 none (the obstacle is left over it).
 */
function clearArea(
  canvas: Rect,
  obstacles: readonly Rect[],
  choice: number,
): { area: Rect; ignored: number } {
  const taken: Record<Side, number> = { left: 0, right: 0, top: 0, bottom: 0 };
  let ignored = 0;
  obstacles.forEach((o, i) => {
    const digit = Math.floor(choice / 3 ** i) % 3;
    if (digit === 2) {
      ignored++;
    } else if (digit === 0) {
      const left = o.x + o.width / 2 < canvas.x + canvas.width / 2;
      if (left) taken.left = Math.max(taken.left, o.x + o.width - canvas.x);
      else taken.right = Math.max(taken.right, canvas.x + canvas.width - o.x);
    } else {
      const top = o.y + o.height / 2 < canvas.y + canvas.height / 2;
      if (top) taken.top = Math.max(taken.top, o.y + o.height - canvas.y);
      else taken.bottom = Math.max(taken.bottom, canvas.y + canvas.height - o.y);
    }
  });
  const area = {
    x: canvas.x + taken.left,
    y: canvas.y + taken.top,
    width: canvas.width - taken.left - taken.right,
    height: canvas.height - taken.top - taken.bottom,
  };
  return { area, ignored };
}
