import type { RelationOrigin } from '../format/model.ts';
import type { LabelNode, PlacedLabel } from './labels.ts';
import { placeLabels } from './labels.ts';
import type { EdgeStyle, GraphTheme } from './palette.ts';
import { categoryColor, edgeStyle, edgeWidth, nodeRadius, themeColors } from './palette.ts';
import { LABEL_FONT_FAMILY, approximateTextWidth } from './textWidth.ts';
import type { GraphNode, PolicyGraph } from './types.ts';

/** How to draw the picture. Labels (the policy ids beside the nodes) are on unless turned off. */
export interface SvgOptions {
  readonly theme: GraphTheme;
  readonly title?: string;
  readonly showLabels?: boolean;
  /** The policies whose labels come first (the selection, the search's hits). */
  readonly emphasised?: ReadonlySet<string>;
}

const MARGIN = 24;
const FONT_SIZE = 11;
const LINE_HEIGHT = 14;
const LABEL_PADDING = 2;
const LABEL_MAX_WIDTH = 180;
/** Room around the outermost nodes for their labels, inside the drawing. */
const LABEL_ROOM_X = 60;
/** The spread aims for this distance (in user units) from a typical node to its nearest. */
const TARGET_SPACING = 110;
const MAX_SPREAD = 4;
const ROW = 18;
const TITLE_HEIGHT = 30;
const ORIGINS: readonly RelationOrigin[] = ['manual', 'heuristic', 'model'];
const ORIGIN_NAMES: Readonly<Record<RelationOrigin, string>> = {
  manual: 'set by hand',
  heuristic: 'heuristic',
  model: 'suggested by a model',
};

interface Placed {
  readonly node: GraphNode;
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

const measure = (text: string) => approximateTextWidth(text, FONT_SIZE);

/**
 * Draws the policy graph as a standalone SVG document, as the graph view shows it: edges as lines
 * (width by weight; manual solid, heuristic dashed and lighter, model dotted in violet, see
 * `edgeStyle`), nodes as circles (colour by category, radius by challenge), the policy ids beside
 * them, and a legend of the categories and edge kinds on the right. The view box fits the nodes
 * with a margin. Nodes without a position, and edges touching them, are left out; the `<desc>`
 * says how many. Every piece of text is XML-escaped.
 *
 * Labels follow the canvas's rule (`placeLabels`): none overlaps another or a node, long ids are
 * cut with "…", and a label that finds no room is left out (its node's `<title>` names it). So
 * that most find room, a crowded layout is spread out first (`spreadOf`): positions are scaled
 * until a typical node is `TARGET_SPACING` from its nearest neighbour, while circles and text keep
 * their size, as zooming in on the canvas does.
 */
export function graphToSvg(
  graph: PolicyGraph,
  positions: ReadonlyMap<string, { readonly x: number; readonly y: number }>,
  options: SvgOptions,
): string {
  const colors = themeColors(options.theme);
  const labels = options.showLabels ?? true;
  const found: Placed[] = [];
  for (const node of graph.nodes) {
    const p = positions.get(node.id);
    if (p && Number.isFinite(p.x) && Number.isFinite(p.y)) {
      found.push({ node, x: p.x, y: p.y, r: nodeRadius(node.challenge) });
    }
  }
  const spread = labels ? spreadOf(found) : 1;
  const placed = found.map((p) => ({ ...p, x: p.x * spread, y: p.y * spread }));
  const byId = new Map(placed.map((p) => [p.node.id, p]));
  const edges = graph.edges.filter((e) => byId.has(e.source) && byId.has(e.target));
  const skipped = graph.nodes.length - placed.length;

  // The drawing's extent: circles, and room around them for labels.
  let [minX, minY, maxX, maxY] =
    placed.length === 0 ? [0, 0, 0, 0] : [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y, r } of placed) {
    minX = Math.min(minX, x - r - (labels ? LABEL_ROOM_X : 0));
    maxX = Math.max(maxX, x + r + (labels ? LABEL_ROOM_X : 0));
    minY = Math.min(minY, y - r - (labels ? LINE_HEIGHT + 2 : 0));
    maxY = Math.max(maxY, y + r + (labels ? LINE_HEIGHT + 2 : 0));
  }
  const shown = labels
    ? svgLabels(placed, edges, options.emphasised, {
        x: minX,
        y: minY,
        width: maxX - minX,
        height: maxY - minY,
      })
    : [];
  const origins = ORIGINS.filter((o) => edges.some((e) => e.origin === o));
  const legendRows = [...graph.categories, ...origins.map((o) => ORIGIN_NAMES[o])];
  const legendWidth =
    legendRows.length === 0 ? 0 : 20 + Math.max(...legendRows.map(measure), 140) + MARGIN;
  const legendHeight = (legendRows.length + 1) * ROW;
  const titleHeight = options.title === undefined ? 0 : TITLE_HEIGHT;
  const x0 = minX - MARGIN;
  const y0 = minY - MARGIN - titleHeight;
  const width = maxX - minX + 2 * MARGIN + legendWidth;
  const height =
    Math.max(maxY - minY, legendRows.length === 0 ? 0 : legendHeight) + 2 * MARGIN + titleHeight;

  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${num(x0)} ${num(y0)} ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" font-family="${LABEL_FONT_FAMILY}" font-size="${FONT_SIZE}" role="img">`,
  ];
  if (options.title !== undefined) out.push(`<title>${escapeXml(options.title)}</title>`);
  const left =
    skipped === 0
      ? ''
      : ` ${skipped} ${plural(skipped, 'policy', 'policies')} without a position ${skipped === 1 ? 'is' : 'are'} not drawn.`;
  out.push(
    `<desc>${placed.length} ${plural(placed.length, 'policy', 'policies')} and ${edges.length} ${plural(edges.length, 'relation', 'relations')}.${left}</desc>`,
    `<rect class="background" x="${num(x0)}" y="${num(y0)}" width="${num(width)}" height="${num(height)}" fill="${colors.background}"/>`,
  );
  if (options.title !== undefined) {
    out.push(
      `<text class="title" x="${num(x0 + MARGIN)}" y="${num(y0 + MARGIN + 4)}" font-size="15" font-weight="600" fill="${colors.text}">${escapeXml(options.title)}</text>`,
    );
  }

  out.push('<g class="edges" stroke-linecap="round">');
  for (const edge of edges) {
    const [a, b] = [byId.get(edge.source), byId.get(edge.target)];
    if (!a || !b) continue;
    const style = edgeStyle(edge.origin, options.theme);
    const about = `${edge.source} – ${edge.target}: weight ${edge.weight} (${ORIGIN_NAMES[edge.origin]})${edge.reasons.length > 0 ? `; ${edge.reasons.join(', ')}` : ''}`;
    out.push(
      `<line class="edge edge-${edge.origin}" x1="${num(a.x)}" y1="${num(a.y)}" x2="${num(b.x)}" y2="${num(b.y)}"${stroke(style, edgeWidth(edge.weight))}><title>${escapeXml(about)}</title></line>`,
    );
  }
  out.push('</g>', `<g class="nodes" stroke="${colors.nodeStroke}" stroke-width="1.5">`);
  for (const { node, x, y, r } of placed) {
    const fill = fillOf(graph, node, options.theme);
    out.push(
      `<circle class="node" cx="${num(x)}" cy="${num(y)}" r="${num(r)}" fill="${fill}"><title>${escapeXml(`${node.id} (${node.category}, challenge ${node.challenge}): ${node.text}`)}</title></circle>`,
    );
  }
  out.push('</g>');
  if (labels) {
    // A halo in the background colour keeps labels readable over edges.
    const halo = `stroke="${colors.background}" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`;
    out.push(`<g class="labels" fill="${colors.text}" ${halo}>`);
    for (const label of shown) {
      // The baseline sits so the text's ascent and descent fill the label's line.
      const baseline = label.y + (LINE_HEIGHT + FONT_SIZE * 0.7) / 2;
      out.push(
        `<text class="label" x="${num(label.x + LABEL_PADDING)}" y="${num(baseline)}">${escapeXml(label.text)}</text>`,
      );
    }
    out.push('</g>');
  }
  if (legendRows.length > 0)
    out.push(...legend(graph, origins, options.theme, maxX + MARGIN, minY));
  out.push('</svg>', '');
  return out.join('\n');
}

/** The legend, top left at (x, y): category colours, edge kinds, and what size and width mean. */
function legend(
  graph: PolicyGraph,
  origins: readonly RelationOrigin[],
  theme: GraphTheme,
  x: number,
  top: number,
): string[] {
  const colors = themeColors(theme);
  const out = [`<g class="legend" fill="${colors.text}">`];
  let y = top + ROW / 2;
  const label = (text: string) =>
    `<text x="${num(x + 20)}" y="${num(y + 4)}">${escapeXml(text)}</text>`;
  graph.categories.forEach((category, i) => {
    const fill = categoryColor(i, theme);
    out.push(
      `<circle class="legend-category" cx="${num(x + 6)}" cy="${num(y)}" r="6" fill="${fill}"/>`,
      label(category),
    );
    y += ROW;
  });
  for (const origin of origins) {
    const line = `x1="${num(x)}" y1="${num(y)}" x2="${num(x + 14)}" y2="${num(y)}"`;
    out.push(
      `<line class="legend-edge" ${line}${stroke(edgeStyle(origin, theme), 2.5)}/>`,
      label(ORIGIN_NAMES[origin]),
    );
    y += ROW;
  }
  out.push(
    `<text class="legend-note" x="${num(x)}" y="${num(y + 4)}" fill="${colors.mutedText}">size: challenge · width: weight</text>`,
    '</g>',
  );
  return out;
}

function fillOf(graph: PolicyGraph, node: GraphNode, theme: GraphTheme): string {
  const index = graph.categories.indexOf(node.category);
  return index === -1 ? themeColors(theme).unknownCategory : categoryColor(index, theme);
}

function stroke(style: EdgeStyle, width: number): string {
  const dash = style.dash === undefined ? '' : ` stroke-dasharray="${style.dash}"`;
  return ` stroke="${style.color}" stroke-opacity="${style.opacity}" stroke-width="${num(width)}"${dash}`;
}

/** The labels of the picture, placed as the canvas places them, importance by degree. */
function svgLabels(
  placed: readonly Placed[],
  edges: PolicyGraph['edges'],
  emphasised: ReadonlySet<string> | undefined,
  canvas: { x: number; y: number; width: number; height: number },
): PlacedLabel[] {
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const nodes: LabelNode[] = placed.map(({ node, x, y, r }) => ({
    id: node.id,
    x,
    y,
    r,
    text: node.id,
    importance: {
      matched: emphasised?.has(node.id) ?? false,
      degree: degree.get(node.id) ?? 0,
      challenge: node.challenge,
    },
  }));
  return placeLabels(nodes, {
    canvas,
    measure,
    lineHeight: LINE_HEIGHT,
    maxWidth: LABEL_MAX_WIDTH,
    padding: LABEL_PADDING,
  });
}

/**
 * How much to scale a layout so labels find room: enough that the median distance from a node
 * to its nearest neighbour reaches `TARGET_SPACING`, never shrinking it, at most `MAX_SPREAD`.
 */
export function spreadOf(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 1;
  // Nearest neighbours by a sweep along x: near-linear for a spread-out layout.
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const nearest: number[] = [];
  sorted.forEach((p, i) => {
    let best = Infinity;
    for (let j = i + 1; j < sorted.length; j++) {
      const q = sorted[j];
      if (!q || q.x - p.x >= best) break;
      best = Math.min(best, Math.hypot(q.x - p.x, q.y - p.y));
    }
    for (let j = i - 1; j >= 0; j--) {
      const q = sorted[j];
      if (!q || p.x - q.x >= best) break;
      best = Math.min(best, Math.hypot(q.x - p.x, q.y - p.y));
    }
    nearest.push(best);
  });
  nearest.sort((a, b) => a - b);
  const median = nearest[Math.floor(nearest.length / 2)] ?? 0;
  if (!(median > 0)) return 1;
  return Math.min(MAX_SPREAD, Math.max(1, TARGET_SPACING / median));
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** Numbers with at most two decimals, so the file stays small and diffs stay quiet. */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Text safe inside XML elements and attributes; characters XML 1.0 forbids are dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // XML 1.0 holds tab, line breaks and characters from U+0020 on, less lone surrogates and U+FFFE/F.
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}
