import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FitNode, FitOptions, Viewport } from './fit.ts';
import { fitViewport } from './fit.ts';
import type { Rect } from './labels.ts';
import { circleMeetsRect } from './labels.ts';

// Random graphs fitted into canvases with a legend (top left), controls (bottom left) and a
// minimap (bottom right): every node ends up inside the canvas with the margin, clear of all
// three, no larger than the set size, and centred in what is left.

const fitNode = fc.record({
  x: fc.integer({ min: -20_000, max: 20_000 }),
  y: fc.integer({ min: -20_000, max: 20_000 }),
  r: fc.integer({ min: 8, max: 20 }),
});

// Canvases large enough that clearing the three costs less than leaving them over the graph.
const canvasSize = fc.record({
  width: fc.integer({ min: 1000, max: 2000 }),
  height: fc.integer({ min: 700, max: 1200 }),
});

function options(width: number, height: number): FitOptions {
  return {
    canvas: { x: 0, y: 0, width, height },
    obstacles: [
      { x: 8, y: 8, width: 200, height: 160 },
      { x: 8, y: height - 90, width: 30, height: 80 },
      { x: width - 160, y: height - 110, width: 150, height: 100 },
    ],
    margin: 20,
    maxScreenRadius: 24,
    minZoom: 0.01,
    maxZoom: 3,
  };
}

const onScreen = (n: FitNode, v: Viewport) => ({
  x: n.x * v.zoom + v.x,
  y: n.y * v.zoom + v.y,
  r: n.r * v.zoom,
});

describe('fitViewport', () => {
  it('keeps every node inside the canvas, with the margin, and clear of the obstacles', () => {
    fc.assert(
      fc.property(fc.array(fitNode, { minLength: 1, maxLength: 60 }), canvasSize, (nodes, size) => {
        const o = options(size.width, size.height);
        const view = fitViewport(nodes, o);
        expect(view).not.toBeNull();
        if (!view || view.zoom <= o.minZoom) return;
        for (const n of nodes) {
          const c = onScreen(n, view);
          expect(c.x - c.r).toBeGreaterThanOrEqual(o.margin - 1e-6);
          expect(c.y - c.r).toBeGreaterThanOrEqual(o.margin - 1e-6);
          expect(c.x + c.r).toBeLessThanOrEqual(size.width - o.margin + 1e-6);
          expect(c.y + c.r).toBeLessThanOrEqual(size.height - o.margin + 1e-6);
          for (const obstacle of o.obstacles ?? []) {
            const shrunk: Rect = { ...obstacle, width: obstacle.width - 1e-6 };
            expect(circleMeetsRect(c, shrunk)).toBe(false);
          }
        }
      }),
    );
  });

  it('leaves an obstacle over the graph rather than lose more than 40 % of the zoom', () => {
    fc.assert(
      fc.property(
        fc.array(fitNode, { minLength: 2, maxLength: 30 }),
        fc.record({
          width: fc.integer({ min: 300, max: 2000 }),
          height: fc.integer({ min: 200, max: 1200 }),
        }),
        (nodes, size) => {
          const o = options(size.width, size.height);
          const open = fitViewport(nodes, { ...o, obstacles: [] });
          const fitted = fitViewport(nodes, o);
          expect(fitted?.zoom ?? 0).toBeGreaterThanOrEqual((open?.zoom ?? 0) * 0.6 - 1e-9);
        },
      ),
    );
  });

  it('never draws a node larger than the set size', () => {
    fc.assert(
      fc.property(fc.array(fitNode, { minLength: 1, maxLength: 4 }), canvasSize, (nodes, size) => {
        const view = fitViewport(nodes, options(size.width, size.height));
        for (const n of nodes) expect(n.r * (view?.zoom ?? 0)).toBeLessThanOrEqual(24 + 1e-9);
      }),
    );
  });

  it('shows a small graph at the set size rather than tiny', () => {
    const nodes = [
      { x: 0, y: 0, r: 20 },
      { x: 100, y: 40, r: 8 },
    ];
    const view = fitViewport(nodes, options(1280, 800));
    expect(view?.zoom).toBeCloseTo(24 / 20);
  });

  it('gives nothing for no nodes', () => {
    expect(fitViewport([], options(800, 600))).toBeNull();
  });
});
