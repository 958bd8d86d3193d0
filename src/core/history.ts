import type { Project, ProjectFileName } from './project.ts';

/** One file's text changed in one place: `removed` at `at` was replaced by `inserted`. */
export interface TextChange {
  readonly file: ProjectFileName;
  readonly at: number;
  readonly removed: string;
  readonly inserted: string;
}

/**
 * Where an edit came from. Typing coalesces into the step before it, as in any editor; a graph
 * edit or a command (rename, extraction) is always a step of its own.
 */
export type EditOrigin = 'type' | 'edit' | 'graph' | 'command';

/** One undo step: the changes it made, what made them, and a label for menus and messages. */
export interface HistoryEntry {
  readonly changes: readonly TextChange[];
  readonly origin: EditOrigin;
  readonly label: string;
  /** Milliseconds on the caller's clock, for coalescing typing. */
  readonly time: number;
}

/** The undo and redo stacks of a project; newest last. */
export interface EditHistory {
  readonly undo: readonly HistoryEntry[];
  readonly redo: readonly HistoryEntry[];
}

type Files = Project['files'];

/** An empty history. */
export const EMPTY_HISTORY: EditHistory = { undo: [], redo: [] };

/** Steps kept; the oldest fall off. */
const MAX_STEPS = 300;
/** Typing pauses longer than this start a new undo step. */
const TYPING_PAUSE_MS = 1_000;

/**
 * The one change that turns `before` into `after` (common prefix and suffix trimmed), or
 * undefined when they are equal. Linear in the texts' length.
 */
export function diffText(
  before: string,
  after: string,
): { at: number; removed: string; inserted: string } | undefined {
  if (before === after) return undefined;
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < limit - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  ) {
    end++;
  }
  return {
    at: start,
    removed: before.slice(start, before.length - end),
    inserted: after.slice(start, after.length - end),
  };
}

/**
 * Records that the project's files went from `before` to `after`. Typing right where the last
 * typing step ended, without a long pause, joins that step. Any new step clears the redo steps
 * of the files it touches.
 */
export function recordEdit(
  history: EditHistory,
  before: Files,
  after: Files,
  meta: { origin: EditOrigin; label: string; time: number },
): EditHistory {
  const changes: TextChange[] = [];
  for (const file of Object.keys(after) as ProjectFileName[]) {
    const diff = diffText(before[file], after[file]);
    if (diff) changes.push({ file, ...diff });
  }
  const change = changes[0];
  if (!change) return history;
  const touched = new Set(changes.map((c) => c.file));
  const redo = history.redo.filter((e) => !e.changes.some((c) => touched.has(c.file)));
  const last = history.undo.at(-1);
  const lastChange = last?.changes[0];
  if (
    meta.origin === 'type' &&
    changes.length === 1 &&
    last?.origin === 'type' &&
    last.changes.length === 1 &&
    lastChange?.file === change.file &&
    meta.time - last.time < TYPING_PAUSE_MS &&
    touches(lastChange, change)
  ) {
    const merged = compose(lastChange, change, before[change.file], after[change.file]);
    return {
      undo: [...history.undo.slice(0, -1), { ...last, changes: [merged], time: meta.time }],
      redo,
    };
  }
  const undo = [...history.undo, { changes, ...meta }];
  return { undo: undo.length > MAX_STEPS ? undo.slice(-MAX_STEPS) : undo, redo };
}

/** Whether a change starts inside or right at the edge of the text the previous one wrote. */
function touches(previous: TextChange, next: TextChange): boolean {
  const end = previous.at + previous.inserted.length;
  return next.at >= previous.at - next.removed.length && next.at <= end;
}

/**
 * One change equal to `first` then `second`. `middle` is the text after `first` (before
 * `second`) and `last` the text after both.
 */
export function compose(
  first: TextChange,
  second: TextChange,
  middle: string,
  last: string,
): TextChange {
  const lo = Math.min(first.at, second.at);
  const hi = Math.max(first.at + first.inserted.length, second.at + second.removed.length);
  return {
    file: first.file,
    at: lo,
    removed:
      middle.slice(lo, first.at) +
      first.removed +
      middle.slice(first.at + first.inserted.length, hi),
    inserted: last.slice(lo, hi - second.removed.length + second.inserted.length),
  };
}

/** What undoing or redoing a step did: the new files and history, and where the text changed. */
export interface HistoryMove {
  readonly files: Files;
  readonly history: EditHistory;
  readonly entry: HistoryEntry;
  /** The place to show afterwards: the first change in `scope` (or the step's first change). */
  readonly focus: { readonly file: ProjectFileName; readonly at: number; readonly length: number };
}

/**
 * Undoes the newest step that touched `scope` (any file when absent). Steps of different files
 * never overlap, so undoing one file's step leaves later steps of other files valid. Returns
 * undefined when there is nothing to undo, or when the text no longer matches the step (then
 * the history is stale and the caller should drop it).
 */
export function undoStep(
  history: EditHistory,
  files: Files,
  scope?: ProjectFileName,
): HistoryMove | undefined {
  const index = findLast(history.undo, scope);
  const found = history.undo[index];
  if (!found) return undefined;
  // A step over several files is undone whole while it is the newest step of each of them;
  // once another file moved on, only the scope's part is undone and the rest stays undoable.
  const later = history.undo.slice(index + 1);
  const split =
    scope !== undefined &&
    found.changes.some((c) => c.file !== scope && later.some((e) => touchesFile(e, c.file)));
  const entry = split
    ? { ...found, changes: found.changes.filter((c) => c.file === scope) }
    : found;
  const rest = split
    ? { ...found, changes: found.changes.filter((c) => c.file !== scope) }
    : undefined;
  const reverted = applyChanges(files, entry.changes.map(invert));
  if (!reverted) return undefined;
  const undo = rest
    ? [...history.undo.slice(0, index), rest, ...later]
    : without(history.undo, index);
  return {
    files: reverted,
    history: { undo, redo: [...history.redo, entry] },
    entry,
    focus: focusOf(entry.changes.map(invert), scope),
  };
}

/** Redoes the newest undone step that touched `scope` (any file when absent). */
export function redoStep(
  history: EditHistory,
  files: Files,
  scope?: ProjectFileName,
): HistoryMove | undefined {
  const index = findLast(history.redo, scope);
  const entry = history.redo[index];
  if (!entry) return undefined;
  const applied = applyChanges(files, entry.changes);
  if (!applied) return undefined;
  return {
    files: applied,
    history: { undo: [...history.undo, entry], redo: without(history.redo, index) },
    entry,
    focus: focusOf(entry.changes, scope),
  };
}

/** Whether a step touching `scope` (any file when absent) can be undone or redone. */
export function canStep(stack: readonly HistoryEntry[], scope?: ProjectFileName): boolean {
  return findLast(stack, scope) !== -1;
}

function findLast(stack: readonly HistoryEntry[], scope: ProjectFileName | undefined): number {
  for (let i = stack.length - 1; i >= 0; i--) {
    const entry = stack[i];
    if (entry && (scope === undefined || touchesFile(entry, scope))) return i;
  }
  return -1;
}

function touchesFile(entry: HistoryEntry, file: ProjectFileName): boolean {
  return entry.changes.some((c) => c.file === file);
}

function without<T>(list: readonly T[], index: number): T[] {
  return [...list.slice(0, index), ...list.slice(index + 1)];
}

function invert(change: TextChange): TextChange {
  return { ...change, removed: change.inserted, inserted: change.removed };
}

/** Applies changes (at most one per file), or undefined if a file no longer holds what they remove. */
function applyChanges(files: Files, changes: readonly TextChange[]): Files | undefined {
  const next: Record<ProjectFileName, string> = { ...files };
  for (const c of changes) {
    const text = next[c.file];
    if (text.slice(c.at, c.at + c.removed.length) !== c.removed) return undefined;
    next[c.file] = text.slice(0, c.at) + c.inserted + text.slice(c.at + c.removed.length);
  }
  return next;
}

function focusOf(
  changes: readonly TextChange[],
  scope: ProjectFileName | undefined,
): HistoryMove['focus'] {
  const change = changes.find((c) => scope === undefined || c.file === scope) ?? changes[0];
  return change
    ? { file: change.file, at: change.at, length: change.inserted.length }
    : { file: 'agent.md', at: 0, length: 0 };
}
