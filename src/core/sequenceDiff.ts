/*
 * The edit script between two sequences (words of two messages, lines of two files): what both
 * share, in order, and what only one has. One longest-common-subsequence walk serves both diffs.
 */

/** One step of an edit script: an item of both sequences, of the first only, or of the second only. */
export type SequenceStep =
  | { readonly kind: 'same'; readonly a: number; readonly b: number }
  | { readonly kind: 'removed'; readonly a: number }
  | { readonly kind: 'added'; readonly b: number };

/**
 * The steps that turn `x` into `y`, in order (indices into each). The common head and tail are
 * matched first; the middle by a longest common subsequence, unless `tooLong(middle of x, middle
 * of y)` says it is too big for that (the table is quadratic): then the whole middle of `x` is
 * removed and the whole middle of `y` added. Whatever `tooLong` allows must stay under 65,535
 * items a side (table lengths are 16-bit).
 */
export function diffSequences<T>(
  x: readonly T[],
  y: readonly T[],
  tooLong: (xs: readonly T[], ys: readonly T[]) => boolean,
): SequenceStep[] {
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (
    tail < x.length - head &&
    tail < y.length - head &&
    x[x.length - 1 - tail] === y[y.length - 1 - tail]
  )
    tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const steps: SequenceStep[] = [];
  for (let i = 0; i < head; i++) steps.push({ kind: 'same', a: i, b: i });
  if (tooLong(xs, ys)) {
    xs.forEach((_, i) => steps.push({ kind: 'removed', a: head + i }));
    ys.forEach((_, j) => steps.push({ kind: 'added', b: head + j }));
  } else {
    for (const step of lcsSteps(xs, ys)) {
      if (step.kind === 'same') steps.push({ kind: 'same', a: head + step.a, b: head + step.b });
      else if (step.kind === 'removed') steps.push({ kind: 'removed', a: head + step.a });
      else steps.push({ kind: 'added', b: head + step.b });
    }
  }
  for (let k = tail; k > 0; k--) steps.push({ kind: 'same', a: x.length - k, b: y.length - k });
  return steps;
}

/** The edit script by a longest common subsequence table (suffix lengths, walked forwards). */
function lcsSteps<T>(x: readonly T[], y: readonly T[]): SequenceStep[] {
  const n = x.length;
  const m = y.length;
  const width = m + 1;
  const table = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        x[i] === y[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  const out: SequenceStep[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      out.push({ kind: 'same', a: i, b: j });
      i++;
      j++;
    } else if (
      j >= m ||
      (i < n && (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))
    ) {
      out.push({ kind: 'removed', a: i });
      i++;
    } else {
      out.push({ kind: 'added', b: j });
      j++;
    }
  }
  return out;
}
