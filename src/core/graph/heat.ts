import type { GraphTheme } from './palette.ts';

// A sequential scale from amber (nothing failed) through orange to deep red (every test failed),
// darker as more failed on a light background and brighter red on a dark one; a policy or
// relation nothing tested is grey, a hue the scale never reaches. heat.test.ts holds the scale to
// one direction of lightness and to contrast with the background.
const HEAT_STOPS: Readonly<Record<GraphTheme, readonly string[]>> = {
  light: ['#C08A00', '#D4550F', '#A8132B'],
  dark: ['#F0C24A', '#F07F3A', '#F0444F'],
};

const UNTESTED: Readonly<Record<GraphTheme, string>> = { light: '#A6A6A6', dark: '#5C5C5C' };

/** The colours of the heat scale for a theme, from a failure rate of 0 to 1, evenly spaced. */
export function heatStops(theme: GraphTheme): readonly string[] {
  return HEAT_STOPS[theme];
}

/** The grey of a policy or relation that the run never tested. */
export function untestedColor(theme: GraphTheme): string {
  return UNTESTED[theme];
}

/**
 * The fill of a policy that failed `rate` (0-1, clamped) of the dialogues that tested it, on the
 * heat scale; null (never tested) is grey.
 */
export function heatColor(rate: number | null, theme: GraphTheme): string {
  if (rate === null || Number.isNaN(rate)) return UNTESTED[theme];
  const stops = HEAT_STOPS[theme];
  const at = Math.min(1, Math.max(0, rate)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(at));
  return mix(stops[i] ?? '#000000', stops[i + 1] ?? '#000000', at - i);
}

function mix(from: string, to: string, t: number): string {
  const a = rgb(from);
  const b = rgb(to);
  const channel = (k: 0 | 1 | 2) =>
    Math.round(a[k] + (b[k] - a[k]) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(0)}${channel(1)}${channel(2)}`.toUpperCase();
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
