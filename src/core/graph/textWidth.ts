/**
 * The font labels are drawn in, on screen and in the exported pictures. Arial and Liberation Sans
 * share their glyph widths (Liberation Sans was drawn to match Arial's metrics), and Helvetica is
 * within a few percent, so the width table below holds wherever one of them is installed.
 */
export const LABEL_FONT_FAMILY = "Arial, 'Liberation Sans', Helvetica, sans-serif";

// Advance widths in thousandths of an em, Arial's (and Liberation Sans's).
const NARROW = 278; // f i j l t . , : ; ! | space and similar
// prettier-ignore
const WIDTHS: Readonly<Record<string, number>> = {
  a: 556, b: 556, c: 500, d: 556, e: 556, f: 278, g: 556, h: 556, i: 222, j: 222, k: 500,
  l: 222, m: 833, n: 556, o: 556, p: 556, q: 556, r: 333, s: 500, t: 278, u: 556, v: 500,
  w: 722, x: 500, y: 500, z: 500,
  A: 667, B: 667, C: 722, D: 722, E: 667, F: 611, G: 778, H: 722, I: 278, J: 500, K: 667,
  L: 556, M: 833, N: 722, O: 778, P: 667, Q: 778, R: 722, S: 667, T: 611, U: 722, V: 667,
  W: 944, X: 667, Y: 667, Z: 611,
  '-': 333, _: 556, '.': NARROW, ',': NARROW, ':': NARROW, ';': NARROW, ' ': NARROW,
  '/': NARROW, '(': 333, ')': 333, '…': 1000,
};
// Digits are all as wide as each other; anything unknown (other scripts, symbols) counts wide,
// so an estimate errs towards more room, never towards overlap.
const DIGIT = 556;
const UNKNOWN = 1000;

/**
 * About how wide `text` is drawn at `fontSize` pixels in `LABEL_FONT_FAMILY`: a per-character
 * table, because core has no fonts to measure. Unknown characters count as a full em.
 */
export function approximateTextWidth(text: string, fontSize: number): number {
  let total = 0;
  for (const char of text) {
    total += WIDTHS[char] ?? (char >= '0' && char <= '9' ? DIGIT : UNKNOWN);
  }
  return (total / 1000) * fontSize;
}
