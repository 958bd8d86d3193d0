/** The five jobs of DESIGN.md, one pane each. */
export const PANE_IDS = ['author', 'graph', 'simulate', 'replay', 'share'] as const;
export type PaneId = (typeof PANE_IDS)[number];

/** Sizes of the panels of one resizable group, in percent, by panel id. */
export type PaneLayout = Readonly<Record<string, number>>;

/** A column of the workbench: one pane, or panes stacked top to bottom. */
export interface Column {
  readonly id: string;
  readonly panes: readonly PaneId[];
  /** Default width, in percent of the workbench. */
  readonly size: number;
  /** Default heights of the stacked panes, in percent of the column. */
  readonly split?: readonly number[];
}

/** The default arrangement: the editor on the left, graph over simulation, replay over share. */
export const COLUMNS: readonly Column[] = [
  { id: 'author', panes: ['author'], size: 38 },
  { id: 'middle', panes: ['graph', 'simulate'], size: 34, split: [58, 42] },
  { id: 'right', panes: ['replay', 'share'], size: 28, split: [64, 36] },
];

/** The column that holds a pane. */
export function columnOf(pane: PaneId): Column {
  const column = COLUMNS.find((c) => c.panes.includes(pane));
  if (!column) throw new Error(`No column holds pane "${pane}".`);
  return column;
}

/**
 * Which panes take no space, given the current size (in percent) of every panel by id.
 * A pane is hidden when its own panel or its column has collapsed to zero.
 */
export function hiddenPanesFrom(sizes: Readonly<Record<string, number>>): PaneId[] {
  return PANE_IDS.filter((pane) => {
    const column = columnOf(pane);
    const columnSize = sizes[column.id] ?? 1;
    const paneSize = column.panes.length > 1 ? (sizes[pane] ?? 1) : columnSize;
    return columnSize <= 0 || paneSize <= 0;
  });
}

/** The next (or previous) visible pane after `from`, wrapping around, for F6 and Shift+F6. */
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
