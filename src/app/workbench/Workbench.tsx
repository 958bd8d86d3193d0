import { useCallback, useState } from 'react';
import type { Layout } from 'react-resizable-panels';
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { PaneId } from '../../state/slices/uiSlice.ts';
import { PANE_IDS } from '../../state/slices/uiSlice.ts';
import { PANES } from '../panes.ts';
import { WORKBENCH_GROUP } from '../../state/slices/uiSlice.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { PaneSlot } from './PaneSlot.tsx';
import type { Column } from '../../state/paneLayout.ts';
import { COLUMNS } from '../../state/paneLayout.ts';
import { useWorkbench } from './WorkbenchContext.ts';

const MIN_WIDTH_PX = 220;
const MIN_HEIGHT_PX = 140;

/** Remembers each group's layout, except while a pane is maximized (that layout is temporary). */
function usePersistedLayout(groupId: string) {
  const store = useAppStoreApi();
  const [defaultLayout] = useState(() => store.getState().readLayout(groupId));
  const onLayoutChanged = useCallback(
    (layout: Layout) => {
      if (store.getState().maximizedPane === null) store.getState().writeLayout(groupId, layout);
    },
    [store, groupId],
  );
  return { defaultLayout, onLayoutChanged };
}

/** The five panes in three resizable columns; every separator can be dragged or moved by keys. */
export function Workbench() {
  const store = useAppStoreApi();
  const { registerPanel } = useWorkbench();
  const outer = usePersistedLayout(WORKBENCH_GROUP);

  const onResize = useCallback(
    (size: { asPercentage: number }, id: string | number | undefined) => {
      if (id === undefined) return;
      store.getState().reportPanelSize(String(id), size.asPercentage);
    },
    [store],
  );

  return (
    <div className="workbench">
      <Group id={WORKBENCH_GROUP} orientation="horizontal" {...withLayout(outer)}>
        {COLUMNS.map((column, index) => (
          <ColumnPanel
            key={column.id}
            column={column}
            previous={COLUMNS[index - 1]?.id}
            onResize={onResize}
            registerPanel={registerPanel}
          />
        ))}
      </Group>
    </div>
  );
}

function withLayout(persisted: ReturnType<typeof usePersistedLayout>) {
  return persisted.defaultLayout === undefined
    ? { onLayoutChanged: persisted.onLayoutChanged }
    : persisted;
}

interface ColumnPanelProps {
  column: Column;
  previous?: string | undefined;
  onResize: (size: { asPercentage: number }, id: string | number | undefined) => void;
  registerPanel: ReturnType<typeof useWorkbench>['registerPanel'];
}

function ColumnPanel({ column, previous, onResize, registerPanel }: ColumnPanelProps) {
  const [single] = column.panes;
  return (
    <>
      {previous !== undefined && (
        <PanelSeparator between={[previous, column.id]} orientation="vertical" />
      )}
      <Panel
        id={column.id}
        className="column"
        defaultSize={String(column.size)}
        minSize={MIN_WIDTH_PX}
        collapsible
        onResize={onResize}
        panelRef={(h) => {
          registerPanel(column.id, h);
        }}
      >
        {column.panes.length === 1 && single !== undefined ? (
          <PaneSlot pane={single} />
        ) : (
          <StackedPanes column={column} onResize={onResize} registerPanel={registerPanel} />
        )}
      </Panel>
    </>
  );
}

function StackedPanes({ column, onResize, registerPanel }: Omit<ColumnPanelProps, 'previous'>) {
  const layout = usePersistedLayout(column.id);
  return (
    <Group id={column.id} orientation="vertical" {...withLayout(layout)}>
      {column.panes.map((pane: PaneId, index) => (
        <PanePanel
          key={pane}
          pane={pane}
          previous={column.panes[index - 1]}
          size={column.split?.[index] ?? 100 / column.panes.length}
          onResize={onResize}
          registerPanel={registerPanel}
        />
      ))}
    </Group>
  );
}

function PanePanel({
  pane,
  previous,
  size,
  onResize,
  registerPanel,
}: {
  pane: PaneId;
  previous: PaneId | undefined;
  size: number;
  onResize: ColumnPanelProps['onResize'];
  registerPanel: ColumnPanelProps['registerPanel'];
}) {
  return (
    <>
      {previous !== undefined && (
        <PanelSeparator between={[previous, pane]} orientation="horizontal" />
      )}
      <Panel
        id={pane}
        defaultSize={String(size)}
        minSize={MIN_HEIGHT_PX}
        collapsible
        onResize={onResize}
        panelRef={(h) => {
          registerPanel(pane, h);
        }}
      >
        <PaneSlot pane={pane} />
      </Panel>
    </>
  );
}

/**
 * A draggable separator. Next to a collapsed panel it shows a grip, so the user sees where the
 * hidden pane is folded and can drag it open again.
 */
function PanelSeparator({
  between,
  orientation,
}: {
  between: readonly [string, string];
  orientation: 'vertical' | 'horizontal';
}) {
  const [a, b] = between;
  const folded = useAppStore((s) => (s.panelSizes[a] ?? 1) <= 0 || (s.panelSizes[b] ?? 1) <= 0);
  return (
    <Separator
      className={`separator separator-${orientation}${folded ? ' separator-folded' : ''}`}
      aria-label={`Resize between ${panelTitle(a)} and ${panelTitle(b)}`}
    />
  );
}

/** A panel's name for people: a pane's title, or the titles of a column's panes. */
function panelTitle(id: string): string {
  const column = COLUMNS.find((c) => c.id === id);
  const panes = column ? column.panes : PANE_IDS.filter((p) => p === id);
  return panes.map((p) => PANES[p].title).join('/');
}
