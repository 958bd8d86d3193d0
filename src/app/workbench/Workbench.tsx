import { Fragment, useCallback, useState } from 'react';
import type { Layout } from 'react-resizable-panels';
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { Column, Slot } from '../../state/paneLayout.ts';
import { COLUMNS, WORKBENCH_GROUP, activePaneOf, defaultLayoutOf } from '../../state/paneLayout.ts';
import { PANE_IDS } from '../../state/slices/uiSlice.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { PANES } from '../panes.ts';
import { PaneSlot } from './PaneSlot.tsx';
import { useStacked } from './useStacked.ts';
import { useWorkbench } from './WorkbenchContext.ts';

const MIN_WIDTH_PX = 220;
const MIN_HEIGHT_PX = 140;
/** The workbench's padding on both sides (see `.app-main`). */
const PADDING_PX = 12;

/**
 * A group's layout: the one saved, else the default for this window's width. It is remembered
 * on every change, except while a pane is maximized (that layout is temporary).
 */
function usePersistedLayout(groupId: string) {
  const store = useAppStoreApi();
  const [defaultLayout] = useState(
    () =>
      store.getState().readLayout(groupId) ??
      defaultLayoutOf(groupId, window.innerWidth - PADDING_PX),
  );
  const onLayoutChanged = useCallback(
    (layout: Layout) => {
      if (store.getState().maximizedPane === null) store.getState().writeLayout(groupId, layout);
    },
    [store, groupId],
  );
  return { defaultLayout, onLayoutChanged };
}

/**
 * The five panes: in resizable columns (Simulate, Replay and Share take turns in one slot), or
 * stacked one under another when the window is narrow.
 */
export function Workbench() {
  return useStacked() ? <StackedWorkbench /> : <ColumnsWorkbench />;
}

function StackedWorkbench() {
  const maximized = useAppStore((s) => s.maximizedPane);
  return (
    <div className="workbench workbench-stacked">
      {PANE_IDS.map((pane) => (
        <div
          key={pane}
          className="stack-item"
          data-stack-pane={pane}
          data-maximized={maximized === pane || undefined}
          hidden={maximized !== null && maximized !== pane}
        >
          <PaneSlot pane={pane} />
        </div>
      ))}
    </div>
  );
}

type OnResize = (size: { asPercentage: number }, id: string | number | undefined) => void;

function ColumnsWorkbench() {
  const store = useAppStoreApi();
  const { registerGroup } = useWorkbench();
  const outer = usePersistedLayout(WORKBENCH_GROUP);

  const onResize = useCallback<OnResize>(
    (size, id) => {
      if (id === undefined) return;
      store.getState().reportPanelSize(String(id), size.asPercentage);
    },
    [store],
  );

  return (
    <div className="workbench">
      <Group
        id={WORKBENCH_GROUP}
        orientation="horizontal"
        {...outer}
        groupRef={(h) => {
          registerGroup(WORKBENCH_GROUP, h);
        }}
      >
        {COLUMNS.map((column, index) => (
          <ColumnPanel
            key={column.id}
            column={column}
            size={outer.defaultLayout[column.id]}
            previous={COLUMNS[index - 1]?.id}
            onResize={onResize}
          />
        ))}
      </Group>
    </div>
  );
}

interface ColumnPanelProps {
  column: Column;
  size: number | undefined;
  previous?: string | undefined;
  onResize: OnResize;
}

function ColumnPanel({ column, size, previous, onResize }: ColumnPanelProps) {
  const { registerPanel } = useWorkbench();
  const [single] = column.slots;
  return (
    <>
      {previous !== undefined && (
        <PanelSeparator between={[previous, column.id]} orientation="vertical" />
      )}
      <Panel
        id={column.id}
        className="column"
        {...(size !== undefined && { defaultSize: String(size) })}
        minSize={MIN_WIDTH_PX}
        collapsible
        onResize={onResize}
        panelRef={(h) => {
          registerPanel(column.id, h);
        }}
      >
        {column.slots.length === 1 && single !== undefined ? (
          <SlotPanes slot={single} />
        ) : (
          <StackedSlots column={column} onResize={onResize} />
        )}
      </Panel>
    </>
  );
}

function StackedSlots({ column, onResize }: { column: Column; onResize: OnResize }) {
  const { registerPanel, registerGroup } = useWorkbench();
  const layout = usePersistedLayout(column.id);
  return (
    <Group
      id={column.id}
      orientation="vertical"
      {...layout}
      groupRef={(h) => {
        registerGroup(column.id, h);
      }}
    >
      {column.slots.map((slot, index) => {
        const previous = column.slots[index - 1];
        const size = layout.defaultLayout[slot.id];
        return (
          <Fragment key={slot.id}>
            {previous !== undefined && (
              <PanelSeparator between={[previous.id, slot.id]} orientation="horizontal" />
            )}
            <Panel
              id={slot.id}
              {...(size !== undefined && { defaultSize: String(size) })}
              minSize={MIN_HEIGHT_PX}
              collapsible
              onResize={onResize}
              panelRef={(h) => {
                registerPanel(slot.id, h);
              }}
            >
              <SlotPanes slot={slot} />
            </Panel>
          </Fragment>
        );
      })}
    </Group>
  );
}

/** The panes of one slot: the chosen one shows, the others wait behind their tabs. */
function SlotPanes({ slot }: { slot: Slot }) {
  const active = useAppStore((s) => activePaneOf(slot, s.paneTabs));
  if (slot.panes.length === 1) return <PaneSlot pane={active} />;
  return (
    <>
      {slot.panes.map((pane) => (
        <PaneSlot key={pane} pane={pane} slot={slot} inactive={pane !== active} />
      ))}
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

/** A panel's name for people: the titles of the panes in a column or slot. */
function panelTitle(id: string): string {
  const column = COLUMNS.find((c) => c.id === id);
  const slot = COLUMNS.flatMap((c) => c.slots).find((s) => s.id === id);
  const panes = column ? column.slots.flatMap((s) => s.panes) : (slot?.panes ?? []);
  return panes.map((p) => PANES[p].title).join('/');
}
