import type { RelationOrigin } from '../format/model.ts';

/** The two looks of the graph: on a light (#fff) or a dark (#1e1e1e) background. */
export type GraphTheme = 'light' | 'dark';

// Tableau 10's hues, in its order (chosen to stay apart, also for the common colour-vision
// deficiencies), each shaded per theme so a node keeps at least 4:1 contrast with the background
// (WCAG asks 3:1 of graphics). palette.test.ts checks contrast and pairwise distance.
const CATEGORY_COLORS: Readonly<Record<GraphTheme, readonly string[]>> = {
  light: [
    '#4E79A7', // blue
    '#C2620F', // orange
    '#D03B43', // red
    '#2F8580', // teal
    '#3F8A37', // green
    '#8F7400', // yellow, darkened to olive
    '#95588A', // purple
    '#C9457A', // pink
    '#8A6148', // brown
    '#6F6863', // grey
  ],
  dark: [
    '#6F9BD1',
    '#F28E2B',
    '#E8696B',
    '#76B7B2',
    '#6DBA5F',
    '#EDC948',
    '#C292B7',
    '#FF9DA7',
    '#B89072',
    '#BAB0AC',
  ],
};

/** How many category colours there are before they repeat. */
export const CATEGORY_COLOR_COUNT = CATEGORY_COLORS.light.length;

/**
 * The fill of the `index`-th category (its place in `PolicyGraph.categories`), for a theme.
 * Colours cycle past the end; a negative or fractional index is folded into range.
 */
export function categoryColor(index: number, theme: GraphTheme): string {
  const colors = CATEGORY_COLORS[theme];
  const i = Number.isFinite(index) ? Math.floor(index) : 0;
  return colors[((i % colors.length) + colors.length) % colors.length] ?? '#888888';
}

/** The colours around the nodes: background, text, node outline, and the fill of an unknown category. */
export interface ThemeColors {
  readonly background: string;
  readonly text: string;
  readonly mutedText: string;
  readonly nodeStroke: string;
  readonly unknownCategory: string;
}

/** The colours of a theme, shared by the graph view and the SVG export. */
export function themeColors(theme: GraphTheme): ThemeColors {
  return theme === 'light'
    ? {
        background: '#ffffff',
        text: '#1f2328',
        mutedText: '#59636e',
        nodeStroke: '#ffffff',
        unknownCategory: '#808080',
      }
    : {
        background: '#1e1e1e',
        text: '#e6e6e6',
        mutedText: '#a0a0a0',
        nodeStroke: '#1e1e1e',
        unknownCategory: '#9a9a9a',
      };
}

/** How an edge is stroked. `dash` is an SVG `stroke-dasharray`, absent for a solid line. */
export interface EdgeStyle {
  readonly color: string;
  readonly opacity: number;
  readonly dash?: string;
}

/**
 * How an edge of each origin is drawn: manual relations solid, heuristic ones dashed and lighter,
 * model ones dotted in a colour of their own (told apart by dash as well as colour).
 */
export function edgeStyle(origin: RelationOrigin, theme: GraphTheme): EdgeStyle {
  const light = theme === 'light';
  switch (origin) {
    case 'manual':
      return { color: light ? '#57606a' : '#b0b0b0', opacity: 0.85 };
    case 'heuristic':
      return { color: light ? '#8c959f' : '#8a8a8a', opacity: 0.55, dash: '6 4' };
    case 'model':
      return { color: light ? '#7a4fc9' : '#b59cf5', opacity: 0.85, dash: '2 3' };
  }
}

/** The radius of a policy's node: 8 for challenge 1 up to 20 for challenge 5 (clamped). */
export function nodeRadius(challenge: number): number {
  const c = Number.isFinite(challenge) ? Math.min(5, Math.max(1, challenge)) : 1;
  return 8 + (c - 1) * 3;
}

/** The stroke width of an edge: 1 for weight 0 up to 6 for weight 10 (clamped). */
export function edgeWidth(weight: number): number {
  const w = Number.isFinite(weight) ? Math.min(10, Math.max(0, weight)) : 0;
  return 1 + w / 2;
}
