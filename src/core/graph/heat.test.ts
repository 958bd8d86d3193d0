import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heatColor, heatStops, untestedColor } from './heat.ts';
import type { GraphTheme } from './palette.ts';
import { themeColors } from './palette.ts';

function luminance(hex: string): number {
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16) / 255)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** How red a colour is against its green: the scale's hue moves from amber to red. */
const redness = (hex: string) => parseInt(hex.slice(1, 3), 16) - parseInt(hex.slice(3, 5), 16);

const THEMES: readonly GraphTheme[] = ['light', 'dark'];

describe('the heat scale', () => {
  it('starts and ends on its first and last stops, and gives grey for never tested', () => {
    for (const theme of THEMES) {
      const stops = heatStops(theme);
      expect(heatColor(0, theme)).toBe(stops[0]);
      expect(heatColor(1, theme)).toBe(stops[stops.length - 1]);
      expect(heatColor(null, theme)).toBe(untestedColor(theme));
      expect(heatColor(Number.NaN, theme)).toBe(untestedColor(theme));
      expect(heatColor(-1, theme)).toBe(stops[0]);
      expect(heatColor(2, theme)).toBe(stops[stops.length - 1]);
    }
  });

  it('is sequential: more failures is never lighter, and never less red', () => {
    for (const theme of THEMES) {
      fc.assert(
        fc.property(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          (a, b) => {
            const [low, high] = a <= b ? [a, b] : [b, a];
            const [lo, hi] = [heatColor(low, theme), heatColor(high, theme)];
            expect(luminance(hi)).toBeLessThanOrEqual(luminance(lo) + 1e-9);
            expect(redness(hi)).toBeGreaterThanOrEqual(redness(lo));
          },
        ),
      );
    }
  });

  it('keeps every colour visible on the background, and grey apart from the scale', () => {
    for (const theme of THEMES) {
      const background = themeColors(theme).background;
      for (let i = 0; i <= 20; i++) {
        const colour = heatColor(i / 20, theme);
        expect(contrast(colour, background)).toBeGreaterThanOrEqual(2);
        // Grey has no hue; every colour on the scale is clearly warm.
        expect(redness(colour)).toBeGreaterThan(40);
      }
      expect(Math.abs(redness(untestedColor(theme)))).toBeLessThan(5);
    }
  });
});
