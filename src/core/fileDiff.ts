import { diffSequences } from './sequenceDiff.ts';

/*
 * What changed in a project's files between two versions (two runs, say): per file, the lines
 * removed and added, grouped into hunks with a few lines of context, as a person reads a patch.
 */

/** One line of a hunk, with its line number (from 1) in the version(s) that have it. */
export type DiffLine =
  | {
      readonly kind: 'same';
      readonly text: string;
      readonly before: number;
      readonly after: number;
    }
  | { readonly kind: 'removed'; readonly text: string; readonly before: number }
  | { readonly kind: 'added'; readonly text: string; readonly after: number };

/** A run of changed lines with the unchanged lines around them. */
export interface DiffHunk {
  /** The first line of the hunk in each version (from 1; 0 for an empty side, as in a patch). */
  readonly beforeStart: number;
  readonly beforeCount: number;
  readonly afterStart: number;
  readonly afterCount: number;
  readonly lines: readonly DiffLine[];
}

/** How one file differs between two versions of a project. */
export interface FileDiff {
  readonly file: string;
  /** Only the second version has the file, only the first, or both (with other text). */
  readonly status: 'added' | 'removed' | 'changed';
  /** Lines only the second version has, and lines only the first has. */
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
  /**
   * The changed middle had more than `DIFF_LINE_CAP` lines a side, so it is shown as all removed
   * and all added rather than matched line by line.
   */
  readonly coarse: boolean;
}

/** Past this many changed lines on a side, a file's diff is not matched line by line. */
export const DIFF_LINE_CAP = 3000;

/** Unchanged lines shown around each change. */
export const DIFF_CONTEXT = 3;

/** A text's lines, without their line breaks (a last empty line after a final break is dropped). */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The files that differ between `before` and `after`, in name order; files equal in both are left
 * out, so two equal projects give an empty list. Each keeps `context` lines around its changes.
 */
export function diffFiles(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
  context = DIFF_CONTEXT,
): FileDiff[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: FileDiff[] = [];
  for (const file of names) {
    const a = Object.hasOwn(before, file) ? before[file] : undefined;
    const b = Object.hasOwn(after, file) ? after[file] : undefined;
    if (a === b) continue;
    const status = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    out.push({ file, status, ...diffLines(a ?? '', b ?? '', context) });
  }
  return out;
}

/** The line diff of two texts, in hunks with `context` unchanged lines around each change. */
export function diffLines(
  a: string,
  b: string,
  context = DIFF_CONTEXT,
): Pick<FileDiff, 'added' | 'removed' | 'hunks' | 'coarse'> {
  const x = linesOf(a);
  const y = linesOf(b);
  let coarse = false;
  const steps = diffSequences(x, y, (xs, ys) => {
    coarse = xs.length > DIFF_LINE_CAP || ys.length > DIFF_LINE_CAP;
    return coarse;
  });
  const lines: DiffLine[] = steps.map((step) => {
    switch (step.kind) {
      case 'same':
        return { kind: 'same', text: x[step.a] ?? '', before: step.a + 1, after: step.b + 1 };
      case 'removed':
        return { kind: 'removed', text: x[step.a] ?? '', before: step.a + 1 };
      case 'added':
        return { kind: 'added', text: y[step.b] ?? '', after: step.b + 1 };
    }
  });
  return {
    added: lines.filter((l) => l.kind === 'added').length,
    removed: lines.filter((l) => l.kind === 'removed').length,
    hunks: hunksOf(lines, context),
    coarse,
  };
}

/** Groups a whole-file diff into hunks: changes less than 2 × context apart share one. */
function hunksOf(lines: readonly DiffLine[], context: number): DiffHunk[] {
  const changed = lines.flatMap((l, i) => (l.kind === 'same' ? [] : [i]));
  const hunks: DiffHunk[] = [];
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] ?? 0;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] ?? 0) - last <= 2 * context + 1) {
      k++;
      last = changed[k] ?? last;
    }
    k++;
    const slice = lines.slice(Math.max(0, first - context), last + context + 1);
    hunks.push(hunkOf(slice, lines, Math.max(0, first - context)));
  }
  return hunks;
}

/** A hunk's header numbers, as a unified diff writes them. */
function hunkOf(slice: readonly DiffLine[], all: readonly DiffLine[], from: number): DiffHunk {
  const beforeCount = slice.filter((l) => l.kind !== 'added').length;
  const afterCount = slice.filter((l) => l.kind !== 'removed').length;
  // The line before which the hunk starts, on each side: count what came earlier.
  const earlier = all.slice(0, from);
  const beforeSeen = earlier.filter((l) => l.kind !== 'added').length;
  const afterSeen = earlier.filter((l) => l.kind !== 'removed').length;
  return {
    beforeStart: beforeCount === 0 ? beforeSeen : beforeSeen + 1,
    beforeCount,
    afterStart: afterCount === 0 ? afterSeen : afterSeen + 1,
    afterCount,
    lines: slice,
  };
}

/** A file's change in a few words: "agent.md (+1 −1)", or "notes.md (only after)". */
export function fileChangeSummary(d: FileDiff): string {
  if (d.status === 'changed') return `${d.file} (+${d.added} −${d.removed})`;
  return `${d.file} (only ${d.status === 'added' ? 'after' : 'before'})`;
}

/**
 * The diffs as one unified diff (what `git diff` prints, with `a/` and `b/` names), so a person
 * can read it anywhere or apply it with `git apply`/`patch`.
 */
export function unifiedDiff(diffs: readonly FileDiff[]): string {
  const out: string[] = [];
  for (const d of diffs) {
    out.push(
      `--- ${d.status === 'added' ? '/dev/null' : `a/${d.file}`}`,
      `+++ ${d.status === 'removed' ? '/dev/null' : `b/${d.file}`}`,
    );
    for (const h of d.hunks) {
      out.push(
        `@@ -${range(h.beforeStart, h.beforeCount)} +${range(h.afterStart, h.afterCount)} @@`,
      );
      for (const l of h.lines)
        out.push(`${l.kind === 'same' ? ' ' : l.kind === 'removed' ? '-' : '+'}${l.text}`);
    }
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

const range = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);
