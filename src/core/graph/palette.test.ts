import { describe, expect, it } from 'vitest';
import type { GraphTheme } from './palette.ts';
import {
  CATEGORY_COLOR_COUNT,
  categoryColor,
  edgeStyle,
  edgeWidth,
  nodeRadius,
  themeColors,
} from './palette.ts';

const THEMES: readonly GraphTheme[] = ['light', 'dark'];

function channels(hex: string): [number, number, number] {
  const value = (i: number) => parseInt(hex.slice(i, i + 2), 16) / 255;
  return [value(1), value(3), value(5)];
}

function linear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** CIE L*a*b* (D65), for the distance between two colours as people see it. */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
  const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
  const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

function distance(a: string, b: string): number {
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

describe('categoryColor', () => {
  it.each(THEMES)('gives ten colours that stand out from the %s background', (theme) => {
    const colors = Array.from({ length: CATEGORY_COLOR_COUNT }, (_, i) => categoryColor(i, theme));
    expect(colors).toHaveLength(10);
    expect(new Set(colors).size).toBe(10);
    for (const color of colors) {
      expect(color).toMatch(/^#[0-9A-F]{6}$/);
      expect(contrast(color, themeColors(theme).background)).toBeGreaterThanOrEqual(4);
    }
    for (const [i, a] of colors.entries()) {
      for (const b of colors.slice(i + 1)) expect(distance(a, b), `${a} ${b}`).toBeGreaterThan(20);
    }
  });

  it('cycles past the end and folds odd indexes into range', () => {
    expect(categoryColor(10, 'light')).toBe(categoryColor(0, 'light'));
    expect(categoryColor(23, 'dark')).toBe(categoryColor(3, 'dark'));
    expect(categoryColor(-1, 'light')).toBe(categoryColor(9, 'light'));
    expect(categoryColor(2.7, 'dark')).toBe(categoryColor(2, 'dark'));
    expect(categoryColor(Number.NaN, 'light')).toBe(categoryColor(0, 'light'));
    expect(categoryColor(0, 'light')).not.toBe(categoryColor(0, 'dark'));
  });
});

describe('sizes', () => {
  it('grows a node with its challenge, clamped to 1..5', () => {
    expect([1, 2, 3, 4, 5].map(nodeRadius)).toEqual([8, 11, 14, 17, 20]);
    expect(nodeRadius(0)).toBe(8);
    expect(nodeRadius(9)).toBe(20);
    expect(nodeRadius(Number.NaN)).toBe(8);
  });

  it('thickens an edge with its weight, clamped to 0..10', () => {
    expect([0, 5, 10].map(edgeWidth)).toEqual([1, 3.5, 6]);
    expect(edgeWidth(-3)).toBe(1);
    expect(edgeWidth(42)).toBe(6);
    expect(edgeWidth(Number.POSITIVE_INFINITY)).toBe(1);
  });
});

describe('edgeStyle', () => {
  it.each(THEMES)('tells the three origins apart by dash on %s', (theme) => {
    const styles = (['manual', 'heuristic', 'model'] as const).map((o) => edgeStyle(o, theme));
    expect(new Set(styles.map((s) => s.dash ?? 'solid')).size).toBe(3);
    expect(styles[0]?.dash).toBeUndefined();
    expect(styles[1]?.opacity).toBeLessThan(styles[0]?.opacity ?? 0);
    expect(styles[2]?.color).not.toBe(styles[0]?.color);
    for (const style of styles) {
      expect(contrast(style.color, themeColors(theme).background)).toBeGreaterThanOrEqual(2);
    }
  });
});
