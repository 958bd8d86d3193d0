import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LabelNode, LabelOptions, PlacedLabel, Rect } from './labels.ts';
import { circleMeetsRect, contains, overlaps, placeLabels } from './labels.ts';
import { approximateTextWidth } from './textWidth.ts';

// Random graphs on random canvases: however crowded, placed labels never overlap, never leave
// the canvas, never cover another node or a kept-clear area, the selected one always shows, and
// the same input gives the same output.

const measure = (text: string) => approximateTextWidth(text, 11);
const CANVAS: Rect = { x: 0, y: 0, width: 640, height: 400 };

const idChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz-0123456789'.split(''));
const id = fc.array(idChars, { minLength: 1, maxLength: 40 }).map((c) => c.join(''));

const node = fc.record({
  id,
  // Tenths of a pixel: spread evenly over the canvas and a little beyond it.
  x: fc.integer({ min: -1000, max: 7400 }).map((v) => v / 10),
  y: fc.integer({ min: -1000, max: 5000 }).map((v) => v / 10),
  r: fc.integer({ min: 20, max: 300 }).map((v) => v / 10),
  degree: fc.nat(20),
  challenge: fc.integer({ min: 1, max: 5 }),
  matched: fc.boolean(),
  failure: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Nodes with unique ids; the one at `selected` (if any) is selected. */
const graph = fc
  .tuple(
    fc.uniqueArray(node, { selector: (n) => n.id, maxLength: 150, size: 'max' }),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([raw, pick]): LabelNode[] =>
    raw.map((n, i) => ({
      id: n.id,
      x: n.x,
      y: n.y,
      r: n.r,
      text: n.id,
      importance: {
        selected: pick !== undefined && raw.length > 0 && i === pick % raw.length,
        matched: n.matched,
        failure: n.failure,
        degree: n.degree,
        challenge: n.challenge,
      },
    })),
  );

const keepClear = fc.array(
  fc.record({
    x: fc.integer({ min: 0, max: 600 }),
    y: fc.integer({ min: 0, max: 360 }),
    width: fc.integer({ min: 10, max: 200 }),
    height: fc.integer({ min: 10, max: 150 }),
  }),
  { maxLength: 3 },
);

const options = (clear: readonly Rect[] = []): LabelOptions => ({
  canvas: CANVAS,
  keepClear: clear,
  measure,
  lineHeight: 14,
  maxWidth: 160,
});

function pairsOverlapping(labels: readonly PlacedLabel[]): number {
  let count = 0;
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++)
      if (overlaps(labels[i] as Rect, labels[j] as Rect)) count++;
  return count;
}

describe('placeLabels', () => {
  it('is tried on crowded canvases', () => {
    const sizes = fc.sample(graph, 200).map((nodes) => placeLabels(nodes, options()).length);
    expect(sizes.filter((n) => n >= 10).length).toBeGreaterThan(100);
  });

  it('never overlaps two labels and never leaves the canvas', () => {
    fc.assert(
      fc.property(graph, keepClear, (nodes, clear) => {
        const labels = placeLabels(nodes, options(clear));
        expect(pairsOverlapping(labels)).toBe(0);
        for (const label of labels) expect(contains(CANVAS, label)).toBe(true);
      }),
    );
  });

  it('covers no other node and no kept-clear area, except to show the selected label', () => {
    fc.assert(
      fc.property(graph, keepClear, (nodes, clear) => {
        const covered: string[] = [];
        for (const label of placeLabels(nodes, options(clear))) {
          const own = nodes.find((n) => n.id === label.id);
          if (own?.importance.selected) continue;
          for (const other of nodes) {
            if (other.id !== label.id && circleMeetsRect(other, label)) covered.push(other.id);
          }
          if (clear.some((area) => overlaps(area, label))) covered.push('a kept-clear area');
        }
        expect(covered).toEqual([]);
      }),
    );
  });

  it('always shows the selected label when its node is on the canvas', () => {
    fc.assert(
      fc.property(graph, keepClear, (nodes, clear) => {
        const selected = nodes.find((n) => n.importance.selected);
        if (!selected || !contains(CANVAS, { ...selected, width: 0, height: 0 })) return;
        const labels = placeLabels(nodes, options(clear));
        expect(labels.map((l) => l.id)).toContain(selected.id);
      }),
    );
  });

  it('gives the same labels for the same nodes in any order', () => {
    fc.assert(
      fc.property(graph, (nodes) => {
        const once = placeLabels(nodes, options());
        expect(placeLabels([...nodes].reverse(), options())).toEqual(once);
        // With nothing to tell them apart, ids decide.
        const alike = nodes.map((n) => ({ ...n, importance: {} }));
        expect(placeLabels([...alike].reverse(), options())).toEqual(placeLabels(alike, options()));
      }),
    );
  });

  it('shows a text whole, or cut with an ellipsis to the widest a label may be', () => {
    fc.assert(
      fc.property(graph, (nodes) => {
        for (const label of placeLabels(nodes, options())) {
          const full = nodes.find((n) => n.id === label.id)?.text ?? '';
          if (label.text === full) continue;
          expect(label.width).toBeLessThanOrEqual(160 + 4);
          expect(label.text.endsWith('…')).toBe(true);
          expect(full.startsWith(label.text.slice(0, -1))).toBe(true);
        }
      }),
    );
  });

  it('cuts a text only when the whole of it finds no room', () => {
    const long = 'confirm-before-refunding-any-order-with-the-customer';
    const alone: LabelNode = { id: long, x: 320, y: 200, r: 10, text: long, importance: {} };
    expect(placeLabels([alone], options())[0]?.text).toBe(long);
    // Neighbours on its row and the rows around it: past a cut label's ends, not a whole one's.
    const crowded = [-1, 1].flatMap((side, i) =>
      [181, 200, 219].map((y, j) => ({
        ...alone,
        id: `n${i}${j}`,
        text: 'n',
        x: 320 + side * 100,
        y,
      })),
    );
    const [first] = placeLabels([alone, ...crowded], options()).filter((l) => l.id === long);
    expect(first?.text.endsWith('…')).toBe(true);
  });

  it('shows every label once the nodes are spread far enough apart', () => {
    // Zooming in on a fixed canvas pushes nodes off it, so "more zoom, more labels" holds only
    // for what stays on screen; what always holds is that enough room shows every label.
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 40 }), (ids) => {
        const columns = Math.ceil(Math.sqrt(ids.length));
        const nodes: LabelNode[] = ids.map((text, i) => ({
          id: text,
          x: 120 + (i % columns) * 260,
          y: 40 + Math.floor(i / columns) * 60,
          r: 10,
          text,
          importance: {},
        }));
        const canvas = { x: 0, y: 0, width: columns * 260 + 240, height: columns * 60 + 80 };
        const labels = placeLabels(nodes, { ...options(), canvas });
        expect(labels).toHaveLength(ids.length);
      }),
    );
  });
});
