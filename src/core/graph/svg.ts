import type { RelationOrigin } from '../format/model.ts';
import type { EdgeStyle, GraphTheme } from './palette.ts';
import { categoryColor, edgeStyle, edgeWidth, nodeRadius, themeColors } from './palette.ts';
import type { GraphNode, PolicyGraph } from './types.ts';

/** How to draw the picture. Labels (the policy ids under the nodes) are on unless turned off. */
export interface SvgOptions {
  readonly theme: GraphTheme;
  readonly title?: string;
  readonly showLabels?: boolean;
}

const MARGIN = 24;
const FONT_SIZE = 11;
const CHAR_WIDTH = FONT_SIZE * 0.6;
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

/**
 * Draws the policy graph as a standalone SVG document, as the graph view shows it: edges as lines
 * (width by weight; manual solid, heuristic dashed and lighter, model dotted in violet, see
 * `edgeStyle`), nodes as circles (colour by category, radius by challenge), the policy ids under
 * them, and a legend of the categories and edge kinds on the right. The view box fits the nodes
 * with a margin. Nodes without a position, and edges touching them, are left out; the `<desc>`
 * says how many. Positions are in the layout's units, which become the SVG's user units. Every
 * piece of text is XML-escaped.
 */
export function graphToSvg(
  graph: PolicyGraph,
  positions: ReadonlyMap<string, { readonly x: number; readonly y: number }>,
  options: SvgOptions,
): string {
  const colors = themeColors(options.theme);
  const labels = options.showLabels ?? true;
  const placed: Placed[] = [];
  for (const node of graph.nodes) {
    const p = positions.get(node.id);
    if (p && Number.isFinite(p.x) && Number.isFinite(p.y)) {
      placed.push({ node, x: p.x, y: p.y, r: nodeRadius(node.challenge) });
    }
  }
  const byId = new Map(placed.map((p) => [p.node.id, p]));
  const edges = graph.edges.filter((e) => byId.has(e.source) && byId.has(e.target));
  const skipped = graph.nodes.length - placed.length;

  // The drawing's extent: circles, and the labels under them.
  let [minX, minY, maxX, maxY] =
    placed.length === 0 ? [0, 0, 0, 0] : [Infinity, Infinity, -Infinity, -Infinity];
  for (const { node, x, y, r } of placed) {
    const half = labels ? Math.max(r, textWidth(node.id) / 2) : r;
    minX = Math.min(minX, x - half);
    maxX = Math.max(maxX, x + half);
    minY = Math.min(minY, y - r);
    maxY = Math.max(maxY, y + r + (labels ? FONT_SIZE + 4 : 0));
  }
  const origins = ORIGINS.filter((o) => edges.some((e) => e.origin === o));
  const legendRows = [...graph.categories, ...origins.map((o) => ORIGIN_NAMES[o])];
  const legendWidth =
    legendRows.length === 0 ? 0 : 20 + Math.max(...legendRows.map(textWidth), 140) + MARGIN;
  const legendHeight = (legendRows.length + 1) * ROW;
  const titleHeight = options.title === undefined ? 0 : TITLE_HEIGHT;
  const x0 = minX - MARGIN;
  const y0 = minY - MARGIN - titleHeight;
  const width = maxX - minX + 2 * MARGIN + legendWidth;
  const height =
    Math.max(maxY - minY, legendRows.length === 0 ? 0 : legendHeight) + 2 * MARGIN + titleHeight;

  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${num(x0)} ${num(y0)} ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="${FONT_SIZE}" role="img">`,
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
    out.push(`<g class="labels" fill="${colors.text}" ${halo} text-anchor="middle">`);
    for (const { node, x, y, r } of placed) {
      out.push(
        `<text class="label" x="${num(x)}" y="${num(y + r + FONT_SIZE + 1)}">${escapeXml(node.id)}</text>`,
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

/** About how wide a text is drawn, for fitting the view box (no fonts to measure in core). */
function textWidth(text: string): number {
  return text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length * CHAR_WIDTH;
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
