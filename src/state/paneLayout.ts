/** The five jobs of DESIGN.md, one pane each. */
export const PANE_IDS = ['author', 'graph', 'simulate', 'replay', 'share'] as const;
export type PaneId = (typeof PANE_IDS)[number];

/** Sizes of the panels of one resizable group, in percent, by panel id. */
export type PaneLayout = Readonly<Record<string, number>>;

/** The pane each tabbed slot shows, by slot id. */
export type PaneTabs = Readonly<Record<string, PaneId>>;

/** A place in a column that shows one pane at a time: several panes there take turns as tabs. */
export interface Slot {
  readonly id: string;
  readonly panes: readonly PaneId[];
}

/** A column of the workbench: one slot, or slots stacked top to bottom. */
export interface Column {
  readonly id: string;
  readonly slots: readonly Slot[];
  /** Default heights of the stacked slots, in percent of the column. */
  readonly split?: readonly number[];
}

/** The id of the outer, horizontal group of columns. */
export const WORKBENCH_GROUP = 'workbench';

/**
 * The arrangement: the editor on the left with the room it needs; on the right the graph over
 * one slot where Simulate, Replay and Share take turns (they are empty until a run or a share
 * exists, and a feature that needs one brings it forward).
 */
export const COLUMNS: readonly Column[] = [
  { id: 'author', slots: [{ id: 'author', panes: ['author'] }] },
  {
    id: 'work',
    slots: [
      { id: 'graph', panes: ['graph'] },
      { id: 'desk', panes: ['simulate', 'replay', 'share'] },
    ],
    split: [52, 48],
  },
];

/** Width the author column asks for by default: the file list plus an 80-column editor. */
const AUTHOR_WIDTH_PX = 760;
/** The least share of the width the author column takes by default, and the most. */
const AUTHOR_MIN_PERCENT = 45;
const AUTHOR_MAX_PERCENT = 64;

/** Below this width (CSS pixels) the panes stack in one column and the page scrolls. */
export const STACK_BELOW_PX = 760;

/** A slot brought forward is made at least this share of its column, a column of the width. */
export const USABLE_SLOT_PERCENT = 40;
export const USABLE_COLUMN_PERCENT = 30;

/** Version of the saved sizes: layouts saved for another arrangement are not read. */
export const LAYOUT_VERSION = 2;

/** The column that holds a pane. */
export function columnOf(pane: PaneId): Column {
  const column = COLUMNS.find((c) => c.slots.some((s) => s.panes.includes(pane)));
  if (!column) throw new Error(`No column holds pane "${pane}".`);
  return column;
}

/** The slot that holds a pane. */
export function slotOf(pane: PaneId): Slot {
  const slot = columnOf(pane).slots.find((s) => s.panes.includes(pane));
  if (!slot) throw new Error(`No slot holds pane "${pane}".`);
  return slot;
}

/**
 * The id of the panel that gives a pane its height: its slot's panel in a column of several
 * slots, otherwise the column's own panel.
 */
export function slotPanelOf(pane: PaneId): string {
  const column = columnOf(pane);
  return column.slots.length > 1 ? slotOf(pane).id : column.id;
}

/** The pane a slot shows: the one chosen in `tabs`, or its first. */
export function activePaneOf(slot: Slot, tabs: PaneTabs): PaneId {
  const chosen = tabs[slot.id];
  return chosen !== undefined && slot.panes.includes(chosen) ? chosen : (slot.panes[0] as PaneId);
}

/** The ids of the panels of one resizable group: the columns, or the slots of one column. */
export function panelIdsOf(groupId: string): readonly string[] {
  if (groupId === WORKBENCH_GROUP) return COLUMNS.map((c) => c.id);
  const column = COLUMNS.find((c) => c.id === groupId);
  return column && column.slots.length > 1 ? column.slots.map((s) => s.id) : [];
}

/** Every resizable group of the arrangement: the columns' group, then each stacked column. */
export const GROUP_IDS: readonly string[] = [
  WORKBENCH_GROUP,
  ...COLUMNS.filter((c) => c.slots.length > 1).map((c) => c.id),
];

/** Default column widths, in percent, for a workbench `widthPx` wide. */
export function defaultColumnSizes(widthPx: number): PaneLayout {
  const wanted = widthPx > 0 ? (AUTHOR_WIDTH_PX / widthPx) * 100 : AUTHOR_MAX_PERCENT;
  const author = Math.round(Math.min(AUTHOR_MAX_PERCENT, Math.max(AUTHOR_MIN_PERCENT, wanted)));
  return { author, work: 100 - author };
}

/** Default sizes of a group's panels, in percent, for a workbench `widthPx` wide. */
export function defaultLayoutOf(groupId: string, widthPx: number): PaneLayout {
  if (groupId === WORKBENCH_GROUP) return defaultColumnSizes(widthPx);
  const column = COLUMNS.find((c) => c.id === groupId);
  if (!column) return {};
  return Object.fromEntries(
    column.slots.map((slot, i) => [slot.id, column.split?.[i] ?? 100 / column.slots.length]),
  );
}

/**
 * Panes collapsed away: their slot's panel or their column has no size. A pane that is only
 * behind another tab of its slot is not collapsed: one click or key brings it forward.
 */
export function collapsedPanesFrom(sizes: PaneLayout): PaneId[] {
  return PANE_IDS.filter((pane) => {
    const column = columnOf(pane);
    const columnSize = sizes[column.id] ?? 1;
    const slotSize = column.slots.length > 1 ? (sizes[slotOf(pane).id] ?? 1) : columnSize;
    return columnSize <= 0 || slotSize <= 0;
  });
}

/** Which panes take no space on screen: collapsed, or behind another tab of their slot. */
export function hiddenPanesFrom(sizes: PaneLayout, tabs: PaneTabs = {}): PaneId[] {
  const collapsed = collapsedPanesFrom(sizes);
  return PANE_IDS.filter(
    (pane) => collapsed.includes(pane) || activePaneOf(slotOf(pane), tabs) !== pane,
  );
}

/**
 * The panels to resize so that a pane brought forward gets a usable size: its slot at least
 * `USABLE_SLOT_PERCENT` of its column and its column at least `USABLE_COLUMN_PERCENT` of the
 * width. Sizes already large enough are left as the user made them.
 */
export function enlargementsFor(pane: PaneId, sizes: PaneLayout): { id: string; size: number }[] {
  const column = columnOf(pane);
  const changes: { id: string; size: number }[] = [];
  const columnSize = sizes[column.id];
  if (columnSize !== undefined && columnSize < USABLE_COLUMN_PERCENT)
    changes.push({ id: column.id, size: USABLE_COLUMN_PERCENT });
  if (column.slots.length > 1) {
    const slot = slotOf(pane);
    const slotSize = sizes[slot.id];
    const index = column.slots.indexOf(slot);
    const usable = Math.max(USABLE_SLOT_PERCENT, column.split?.[index] ?? 0);
    if (slotSize !== undefined && slotSize < USABLE_SLOT_PERCENT)
      changes.push({ id: slot.id, size: usable });
  }
  return changes;
}

/**
 * Reads a saved layout of one group: a JSON map of exactly the group's panel ids to sizes in
 * percent that add up to 100. Anything else (broken JSON, the panels of an older arrangement,
 * sizes that do not add up) is `undefined`, and the group starts from its defaults.
 */
export function parseLayout(
  text: string | null,
  panelIds: readonly string[],
): PaneLayout | undefined {
  const value = parseJsonObject(text);
  if (value === undefined) return undefined;
  const entries = Object.entries(value);
  const ids = entries.map(([id]) => id).sort();
  const expected = [...panelIds].sort();
  if (ids.length !== expected.length || ids.some((id, i) => id !== expected[i])) return undefined;
  let total = 0;
  for (const [, size] of entries) {
    if (typeof size !== 'number' || !Number.isFinite(size) || size < 0 || size > 100)
      return undefined;
    total += size;
  }
  return Math.abs(total - 100) <= 1 ? (Object.fromEntries(entries) as PaneLayout) : undefined;
}

/** Reads saved tabs: each slot of several panes to one of its panes; anything else is dropped. */
export function parseTabs(text: string | null): PaneTabs {
  const value = parseJsonObject(text) ?? {};
  const slots = COLUMNS.flatMap((c) => c.slots).filter((s) => s.panes.length > 1);
  const tabs: Record<string, PaneId> = {};
  for (const slot of slots) {
    const pane = slot.panes.find((p) => p === value[slot.id]);
    if (pane !== undefined) tabs[slot.id] = pane;
  }
  return tabs;
}

function parseJsonObject(text: string | null): Record<string, unknown> | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The next (or previous) pane after `from` that is not collapsed away, wrapping around, for F6
 * and Shift+F6. Panes behind another tab count: going to one brings it forward.
 */
export function cyclePane(
  from: PaneId | undefined,
  hidden: readonly PaneId[],
  direction: 1 | -1,
): PaneId | undefined {
  const visible = PANE_IDS.filter((p) => !hidden.includes(p));
  if (visible.length === 0) return undefined;
  if (from === undefined) return direction === 1 ? visible[0] : visible.at(-1);
  const order = [...PANE_IDS];
  const start = order.indexOf(from);
  for (let step = 1; step <= order.length; step++) {
    const candidate = order[(start + direction * step + order.length * 2) % order.length];
    if (candidate !== undefined && visible.includes(candidate)) return candidate;
  }
  return undefined;
}
