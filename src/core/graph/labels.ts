/** A rectangle: top-left corner, width and height, in whatever space the caller works in. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * What makes one label worth more than another, compared in this order: the selected policy,
 * the hovered one, search (or sample) hits, failures, then degree and challenge.
 */
export interface LabelImportance {
  readonly selected?: boolean;
  readonly hovered?: boolean;
  readonly matched?: boolean;
  /** How badly the policy fares: a failure rate (0 to 1), or 1 when broken at the replayed step. */
  readonly failure?: number;
  /** How many relations the policy has. */
  readonly degree?: number;
  readonly challenge?: number;
}

/** A node to label: its centre and radius, and the text its label would say. */
export interface LabelNode {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly r: number;
  readonly text: string;
  readonly importance: LabelImportance;
}

/** Where labels may go and how text is measured. */
export interface LabelOptions {
  /** Labels stay inside it; nodes outside it get none. */
  readonly canvas: Rect;
  /** Parts of the canvas covered by something else (a legend, a minimap): no label goes there. */
  readonly keepClear?: readonly Rect[];
  /** The drawn width of a text (a canvas's `measureText`, or `approximateTextWidth`). */
  readonly measure: (text: string) => number;
  /** A label's height. */
  readonly lineHeight: number;
  /** The widest a label may be when its whole text finds no room; it is then cut and ends in "…". */
  readonly maxWidth: number;
  /** Room between a node's circle and its label. */
  readonly gap?: number;
  /** Room added to each side of a label's text, so neighbours do not touch. */
  readonly padding?: number;
}

/** Which side of its node a label sits on, in the order they are tried. */
export type LabelSide = 'below' | 'above' | 'right' | 'left';

/** A label that is shown: its box (text and padding) and the text it says. */
export interface PlacedLabel extends Rect {
  readonly id: string;
  readonly text: string;
  readonly side: LabelSide;
}

const SIDES: readonly LabelSide[] = ['below', 'above', 'right', 'left'];
const ELLIPSIS = '…';
let segmenter: Intl.Segmenter | undefined;

/**
 * Orders labels by importance (most important first): selected, hovered, matched, failure,
 * degree, challenge, then by id so the order never depends on the input's.
 */
export function compareLabels(a: LabelNode, b: LabelNode): number {
  const p = a.importance;
  const q = b.importance;
  return (
    flag(q.selected) - flag(p.selected) ||
    flag(q.hovered) - flag(p.hovered) ||
    flag(q.matched) - flag(p.matched) ||
    (q.failure ?? 0) - (p.failure ?? 0) ||
    (q.degree ?? 0) - (p.degree ?? 0) ||
    (q.challenge ?? 0) - (p.challenge ?? 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Decides which labels show and where, so that no two overlap, none covers another node's circle
 * or a kept-clear area, and all stay inside the canvas.
 *
 * Labels are taken greedily in order of importance (`compareLabels`), and each tries four spots
 * around its node: below, above, right, left (the classic point-feature candidates of map
 * labelling), slid along its side to stay inside the canvas as long as it still faces its node.
 * The first free spot wins, for the whole text first, then for the text cut to `maxWidth`; a
 * label with none is left out (its policy's title still names it).
 * The selected and the hovered policy's labels always show (unless the one would cover the other):
 * if every spot is taken by circles or kept-clear areas, they go to the least crowded one.
 *
 * Of the ways graph viewers handle this, this follows Sigma.js in spirit (labels in screen space
 * at a fixed size, chosen by priority through a grid over the screen, so zooming in shows more of
 * them) but tests real overlap instead of a quota per grid cell, so dense areas never stack text.
 * Cytoscape's priority and min-zoomed-font-size become the importance order and the collision test
 * (a label that cannot be drawn clear is not drawn). Gephi's Label Adjust moves nodes apart; a
 * live view must not move the nodes, so the exports spread the layout instead (see `svg.ts`).
 *
 * Occupied space is kept in a uniform grid (a spatial hash), so each test looks only at nearby
 * boxes: about linear in the number of nodes on the canvas. Deterministic: same input, same output.
 */
export function placeLabels(nodes: readonly LabelNode[], options: LabelOptions): PlacedLabel[] {
  const { canvas, lineHeight, maxWidth, measure } = options;
  const gap = options.gap ?? 2;
  const padding = options.padding ?? 2;
  const keepClear = options.keepClear ?? [];
  const grid = new Grid(canvas);
  const onCanvas = nodes.filter(
    (n) => Number.isFinite(n.x) && Number.isFinite(n.y) && circleMeetsRect(n, canvas),
  );
  for (const node of onCanvas) grid.addCircle(node);

  const placed: PlacedLabel[] = [];
  const room = canvas.width - 2 * padding;
  for (const node of [...onCanvas].sort(compareLabels)) {
    if (!pointInRect(node, canvas) || room <= 0 || lineHeight > canvas.height) continue;
    // The whole text where it finds a free spot, else cut to the widest a label may be (worked
    // out only then: cutting is the dear part).
    const whole = cutText(node.text, room, measure);
    const forced = node.importance.selected === true || node.importance.hovered === true;
    let best: { box: Rect; side: LabelSide; cost: number; text: string } | null = null;
    let cut = '';
    for (const variant of ['whole', 'cut'] as const) {
      const text =
        variant === 'whole' ? whole : (cut = cutText(node.text, Math.min(maxWidth, room), measure));
      if (text === '' || (variant === 'cut' && text === whole)) continue;
      const width = Math.min(measure(text), room) + 2 * padding;
      for (const side of SIDES) {
        const box = spot(node, side, width, lineHeight, gap, canvas);
        if (!box || grid.hitsLabel(box)) continue;
        const cost =
          (grid.hitsCircle(box, node) ? 1 : 0) + (keepClear.some((k) => overlaps(k, box)) ? 1 : 0);
        if (cost === 0 || (forced && (!best || cost < best.cost))) best = { box, side, cost, text };
        if (cost === 0) break;
      }
      if (best?.cost === 0) break;
    }
    if (!best && forced && cut !== '') {
      // No side fits the canvas (a node in a corner of a small canvas): below it, pushed inside.
      const width = Math.min(measure(cut), room) + 2 * padding;
      const box = {
        x: clamp(node.x - width / 2, canvas.x, canvas.x + canvas.width - width),
        y: clamp(node.y + node.r + gap, canvas.y, canvas.y + canvas.height - lineHeight),
        width,
        height: lineHeight,
      };
      if (!grid.hitsLabel(box)) best = { box, side: 'below', cost: 2, text: cut };
    }
    if (!best) continue;
    const label: PlacedLabel = { id: node.id, text: best.text, side: best.side, ...best.box };
    grid.addLabel(label);
    placed.push(label);
  }
  return placed;
}

// Cuts already worked out, per measure (a canvas's or a table's), so placing again after the view
// moves costs no cutting. Forgotten wholesale past a few thousand.
const cuts = new WeakMap<(text: string) => number, Map<string, string>>();
const CUTS_KEPT = 5_000;

function cutText(text: string, width: number, measure: (text: string) => number): string {
  if (measure(text) <= width) return text;
  let known = cuts.get(measure);
  if (!known) cuts.set(measure, (known = new Map<string, string>()));
  const key = `${width}\u0000${text}`;
  let cut = known.get(key);
  if (cut === undefined) {
    if (known.size >= CUTS_KEPT) known.clear();
    cut = fitText(text, width, measure);
    known.set(key, cut);
  }
  return cut;
}

/** `text` as it fits in `width`: whole, or cut with "…" at the end; empty when not even that fits. */
export function fitText(text: string, width: number, measure: (text: string) => number): string {
  if (measure(text) <= width) return text;
  // Cut between graphemes, so an accent or an emoji is never split.
  segmenter ??= new Intl.Segmenter();
  const chars = Array.from(segmenter.segment(text), (s) => s.segment);
  // Binary search for the longest prefix that fits with the ellipsis.
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(chars.slice(0, mid).join('') + ELLIPSIS) <= width) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '' : chars.slice(0, low).join('') + ELLIPSIS;
}

/** Whether two rectangles overlap (touching edges do not count). */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether `inner` lies wholly inside `outer`. */
export function contains(outer: Rect, inner: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** Whether a circle and a rectangle share any point's neighbourhood (overlap, not just touch). */
export function circleMeetsRect(c: { x: number; y: number; r: number }, rect: Rect): boolean {
  const dx = c.x - clamp(c.x, rect.x, rect.x + rect.width);
  const dy = c.y - clamp(c.y, rect.y, rect.y + rect.height);
  return dx * dx + dy * dy < c.r * c.r;
}

/**
 * The box of a label on one side of its node, slid along that side into the canvas as long as it
 * still faces the node; null when it cannot stay inside.
 */
function spot(
  node: LabelNode,
  side: LabelSide,
  width: number,
  height: number,
  gap: number,
  canvas: Rect,
): Rect | null {
  let x: number;
  let y: number;
  if (side === 'below' || side === 'above') {
    y = side === 'below' ? node.y + node.r + gap : node.y - node.r - gap - height;
    // Slide sideways, but keep the node's centre over the label.
    x = clamp(node.x - width / 2, canvas.x, canvas.x + canvas.width - width);
    if (x > node.x || x + width < node.x) return null;
  } else {
    x = side === 'right' ? node.x + node.r + gap : node.x - node.r - gap - width;
    y = clamp(node.y - height / 2, canvas.y, canvas.y + canvas.height - height);
    if (y > node.y || y + height < node.y) return null;
  }
  const box = { x, y, width, height };
  return contains(canvas, box) ? box : null;
}

/** A uniform grid over the canvas holding the placed labels and the nodes' circles. */
class Grid {
  private readonly size: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly labels: Rect[][];
  private readonly circles: LabelNode[][];
  private readonly canvas: Rect;

  constructor(canvas: Rect) {
    this.canvas = canvas;
    // About 48 px cells, but never more than 2^16 of them, whatever the canvas.
    this.size = Math.max(48, Math.sqrt((canvas.width * canvas.height) / 65_536));
    this.columns = Math.max(1, Math.ceil(canvas.width / this.size));
    this.rows = Math.max(1, Math.ceil(canvas.height / this.size));
    const cells = this.columns * this.rows;
    this.labels = Array.from({ length: cells }, () => []);
    this.circles = Array.from({ length: cells }, () => []);
  }

  addLabel(box: Rect) {
    for (const cell of this.cells(box)) this.labels[cell]?.push(box);
  }

  addCircle(node: LabelNode) {
    const box = { x: node.x - node.r, y: node.y - node.r, width: 2 * node.r, height: 2 * node.r };
    for (const cell of this.cells(box)) this.circles[cell]?.push(node);
  }

  hitsLabel(box: Rect): boolean {
    return this.cells(box).some((cell) => (this.labels[cell] ?? []).some((l) => overlaps(l, box)));
  }

  /** Whether the box covers any circle but `own`'s. */
  hitsCircle(box: Rect, own: LabelNode): boolean {
    return this.cells(box).some((cell) =>
      (this.circles[cell] ?? []).some((c) => c !== own && circleMeetsRect(c, box)),
    );
  }

  private cells(box: Rect): number[] {
    const { x, y } = this.canvas;
    const c0 = clamp(Math.floor((box.x - x) / this.size), 0, this.columns - 1);
    const c1 = clamp(Math.floor((box.x + box.width - x) / this.size), 0, this.columns - 1);
    const r0 = clamp(Math.floor((box.y - y) / this.size), 0, this.rows - 1);
    const r1 = clamp(Math.floor((box.y + box.height - y) / this.size), 0, this.rows - 1);
    const out: number[] = [];
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) out.push(r * this.columns + c);
    return out;
  }
}

function pointInRect(p: { x: number; y: number }, rect: Rect): boolean {
  return (
    p.x >= rect.x && p.x <= rect.x + rect.width && p.y >= rect.y && p.y <= rect.y + rect.height
  );
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

function flag(value: boolean | undefined): number {
  return value ? 1 : 0;
}
