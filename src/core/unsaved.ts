import type { GraphLayout, ProjectFileName } from './project.ts';
import { isProjectFileName, readLayout } from './project.ts';

/**
 * One tab's edits to one project that are not yet in the project store: kept where a reload or a
 * crash cannot reach them (written at once, without waiting), so they can be put back at the next
 * start.
 */
export interface UnsavedEdits {
  readonly projectId: string;
  /** The page (tab) that made them; each tab keeps its own. */
  readonly tab: string;
  readonly name: string;
  /** The files changed since the last save, with their new text. */
  readonly files: Partial<Record<ProjectFileName, string>>;
  /** For each changed file, the fingerprint of the saved text the edit was made on. */
  readonly base: Partial<Record<ProjectFileName, string>>;
  /**
   * For each changed file a save of this tab was writing when the edits were kept, the
   * fingerprint of the text it was writing: the store may hold that text at the next start (an
   * IndexedDB write begun before a reload can finish after it), which is this tab's own and no
   * conflict. Absent when no save was under way.
   */
  readonly pending?: Partial<Record<ProjectFileName, string>>;
  /** Every hand-placed position, when policies were moved on the graph since the last save. */
  readonly layout?: GraphLayout;
  /** When they were written (ISO-8601). */
  readonly at: string;
}

/**
 * Where unsaved edits are kept (localStorage in the page, memory in tests). Writes are synchronous,
 * so a page that is closing still gets them down; `write` answers false when storage refused.
 */
export interface UnsavedJournal {
  list(): UnsavedEdits[];
  write(edits: UnsavedEdits): boolean;
  remove(projectId: string, tab: string): void;
}

type Files = Readonly<Record<ProjectFileName, string>>;

/** A short fingerprint of a text (its length and a 32-bit FNV-1a hash), to tell versions apart. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length.toString(36)}.${(hash >>> 0).toString(36)}`;
}

/**
 * The files of `files` that differ from `saved`, and the positions when `layout.now` is not
 * `layout.saved`, as unsaved edits; undefined when nothing differs.
 */
export function unsavedEdits(
  who: { readonly projectId: string; readonly tab: string; readonly at: string },
  name: string,
  files: Files,
  saved: Partial<Files>,
  layout?: { readonly now: GraphLayout | undefined; readonly saved: GraphLayout | undefined },
  saving?: Partial<Files>,
): UnsavedEdits | undefined {
  const changed: Partial<Record<ProjectFileName, string>> = {};
  const base: Partial<Record<ProjectFileName, string>> = {};
  const pending: Partial<Record<ProjectFileName, string>> = {};
  for (const file of Object.keys(files) as ProjectFileName[]) {
    if (files[file] === saved[file]) continue;
    changed[file] = files[file];
    base[file] = fingerprint(saved[file] ?? '');
    const writing = saving?.[file];
    if (writing !== undefined && writing !== saved[file]) pending[file] = fingerprint(writing);
  }
  const moved = layout !== undefined && layout.now !== layout.saved;
  if (Object.keys(changed).length === 0 && !moved) return undefined;
  return {
    ...who,
    name,
    files: changed,
    base,
    ...(Object.keys(pending).length > 0 && { pending }),
    ...(moved && { layout: layout.now ?? {} }),
  };
}

/** Two versions of a project's files merged file by file, and the files both sides changed. */
export interface FileMerge {
  readonly files: Files;
  /** Files changed on both sides to different texts: `files` holds `ours` for them. */
  readonly conflicts: readonly ProjectFileName[];
}

/**
 * Merges what this tab wrote (`ours`) with what another wrote since (`theirs`), both made from
 * `base`, file by file: a file changed on one side only takes that side's text.
 */
export function mergeFiles(base: Partial<Files>, ours: Files, theirs: Files): FileMerge {
  const files = { ...ours };
  const conflicts: ProjectFileName[] = [];
  for (const file of Object.keys(ours) as ProjectFileName[]) {
    const mine = ours[file];
    const other = theirs[file];
    if (mine === other || other === base[file]) continue;
    if (mine === base[file]) files[file] = other;
    else conflicts.push(file);
  }
  return { files, conflicts };
}

/** A project's name and hand-placed positions, as one side of a merge sees them. */
export interface ProjectExtras {
  readonly name: string;
  readonly layout: GraphLayout | undefined;
}

/** Name and positions merged, and what of them came from the other side. */
export interface ExtrasMerge extends ProjectExtras {
  /** The other side's name was taken (this side had not renamed the project). */
  readonly tookName: boolean;
  /** Policies whose position (or its removal) was taken from the other side. */
  readonly tookPositions: readonly string[];
}

/**
 * Merges this tab's name and positions (`ours`) with another tab's (`theirs`), both made from
 * `base`: a name renamed on one side only takes that side's, a rename on both keeps ours; positions
 * merge policy by policy the same way, so a policy moved in each tab keeps both moves.
 */
export function mergeExtras(
  base: ProjectExtras,
  ours: ProjectExtras,
  theirs: ProjectExtras,
): ExtrasMerge {
  const tookName = ours.name === base.name && theirs.name !== base.name;
  const layout = new Map(Object.entries(ours.layout ?? {}));
  const tookPositions: string[] = [];
  const ids = new Set([...Object.keys(theirs.layout ?? {}), ...Object.keys(base.layout ?? {})]);
  for (const id of ids) {
    const was = positionOf(base.layout, id);
    const mine = positionOf(ours.layout, id);
    const other = positionOf(theirs.layout, id);
    if (!samePosition(mine, was) || samePosition(other, was) || samePosition(mine, other)) continue;
    if (other === undefined) layout.delete(id);
    else layout.set(id, other);
    tookPositions.push(id);
  }
  const merged =
    tookPositions.length === 0
      ? ours.layout
      : layout.size === 0
        ? undefined
        : Object.fromEntries(layout);
  return { name: tookName ? theirs.name : ours.name, layout: merged, tookName, tookPositions };
}

function positionOf(layout: GraphLayout | undefined, id: string) {
  return layout !== undefined && Object.hasOwn(layout, id) ? layout[id] : undefined;
}

function samePosition(
  a: { readonly x: number; readonly y: number } | undefined,
  b: { readonly x: number; readonly y: number } | undefined,
): boolean {
  return a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y);
}

/** Unsaved edits put back onto the stored files. */
export interface Recovery {
  /** The stored files with every edit applied. */
  readonly files: Files;
  /** The positions the edits hold, when policies were moved (empty: every position cleared). */
  readonly layout: GraphLayout | undefined;
  /** Whether any edit was not already in the stored files. */
  readonly changed: boolean;
  /** Files whose stored text moved on since the edit was made (by another tab). */
  readonly conflicts: readonly ProjectFileName[];
}

/** Applies unsaved edits to the stored files, saying which of them the store changed meanwhile. */
export function recoverEdits(stored: Files, edits: UnsavedEdits): Recovery {
  const files = { ...stored };
  const conflicts: ProjectFileName[] = [];
  let changed = false;
  for (const [file, text] of Object.entries(edits.files) as [ProjectFileName, string][]) {
    if (!(file in stored) || stored[file] === text) continue;
    const now = fingerprint(stored[file]);
    if (now !== edits.base[file] && now !== edits.pending?.[file]) conflicts.push(file);
    files[file] = text;
    changed = true;
  }
  return { files, layout: edits.layout, changed, conflicts };
}

/** Reads unsaved edits back from storage; anything not of their shape is undefined. */
export function readUnsavedEdits(value: unknown): UnsavedEdits | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { projectId, tab, name, at } = record;
  if (
    typeof projectId !== 'string' ||
    typeof tab !== 'string' ||
    typeof name !== 'string' ||
    typeof at !== 'string'
  ) {
    return undefined;
  }
  const files = textsOf(record.files);
  const base = textsOf(record.base);
  if (!files || !base) return undefined;
  if (Object.keys(files).some((file) => !(file in base))) return undefined;
  const layout = record.layout === undefined ? undefined : readLayout(record.layout).layout;
  const pending = record.pending === undefined ? undefined : textsOf(record.pending);
  return {
    projectId,
    tab,
    name,
    at,
    files,
    base,
    ...(pending && Object.keys(pending).length > 0 && { pending }),
    ...(layout && { layout }),
  };
}

function textsOf(value: unknown): Partial<Record<ProjectFileName, string>> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const texts: Partial<Record<ProjectFileName, string>> = {};
  for (const [file, text] of Object.entries(value)) {
    if (!isProjectFileName(file) || typeof text !== 'string') return undefined;
    texts[file] = text;
  }
  return texts;
}

/** What one tab tells the others of the same app: it wrote a project to the store. */
export interface TabMessage {
  readonly kind: 'saved';
  readonly projectId: string;
  readonly tab: string;
}

/** How tabs of the same app hear of each other (a BroadcastChannel in the page). */
export interface TabChannel {
  post(message: TabMessage): void;
  /** Calls `hear` with each message another tab posts; returns a function that stops it. */
  listen(hear: (message: TabMessage) => void): () => void;
}

/** Reads a message from another tab; anything not of its shape is undefined. */
export function readTabMessage(value: unknown): TabMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, projectId, tab } = value as Record<string, unknown>;
  return kind === 'saved' && typeof projectId === 'string' && typeof tab === 'string'
    ? { kind, projectId, tab }
    : undefined;
}
