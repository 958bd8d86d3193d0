import type { Rect } from '../../core/index.ts';

/** What floats over the canvas and hides nodes: the legend, the zoom controls, the minimap. */
export const FIT_CLEAR = ['.graph-legend', '.react-flow__controls', '.react-flow__minimap'];
/** Labels also keep off the selected policy's details and the notes at the bottom. */
export const LABEL_CLEAR = [
  ...FIT_CLEAR,
  '.policy-details',
  '.graph-replay-banner',
  '.graph-stale',
];

/**
 * The boxes of the elements inside `host` that match `selectors`, relative to `host`, grown by
 * `pad` pixels; hidden ones (no size) are left out.
 */
export function rectsWithin(host: HTMLElement, selectors: readonly string[], pad = 4): Rect[] {
  const origin = host.getBoundingClientRect();
  const out: Rect[] = [];
  for (const element of host.querySelectorAll(selectors.join(','))) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    out.push({
      x: box.left - origin.left - pad,
      y: box.top - origin.top - pad,
      width: box.width + 2 * pad,
      height: box.height + 2 * pad,
    });
  }
  return out;
}
