import type { ReactNode } from 'react';
import { useEffect, useMemo, useRef } from 'react';
import type { GroupImperativeHandle, PanelImperativeHandle } from 'react-resizable-panels';
import type { PaneId } from '../../state/slices/uiSlice.ts';
import { PANE_IDS } from '../../state/slices/uiSlice.ts';
import { useAppStoreApi } from '../../state/useAppStore.ts';
import type { PaneLayout } from '../../state/paneLayout.ts';
import {
  COLUMNS,
  activePaneOf,
  columnOf,
  enlargementsFor,
  slotOf,
} from '../../state/paneLayout.ts';
import type { WorkbenchApi } from './WorkbenchContext.ts';
import { WorkbenchContext } from './WorkbenchContext.ts';

/**
 * Owns the imperative handles of the resizable panels and groups and turns "show", "hide",
 * "maximize" and "focus" into calls on them. Which panes are hidden is read back from the
 * panels' sizes and the slots' tabs (see `hiddenPanesFrom`), so dragging a pane shut and
 * clicking its toggle end in the same state.
 */
export function WorkbenchProvider({ children }: { children: ReactNode }) {
  const store = useAppStoreApi();
  const panels = useRef(new Map<string, PanelImperativeHandle>());
  const groups = useRef(new Map<string, GroupImperativeHandle>());
  const sections = useRef(new Map<PaneId, HTMLElement>());
  /** Every group's layout just before a pane was maximized, set back exactly on restore. */
  const beforeMaximize = useRef<Record<string, PaneLayout> | null>(null);

  const api = useMemo<WorkbenchApi>(() => {
    const handle = (id: string) => panels.current.get(id);
    const collapsed = (id: string) => handle(id)?.isCollapsed() === true;
    // Asked of the panels themselves: the store hears of size changes a moment later.
    const isCollapsedAway = (pane: PaneId) => {
      const column = columnOf(pane);
      return collapsed(column.id) || (column.slots.length > 1 && collapsed(slotOf(pane).id));
    };
    const isHidden = (pane: PaneId) => {
      const { stacked, maximizedPane, paneTabs } = store.getState();
      if (stacked) return maximizedPane !== null && maximizedPane !== pane;
      return isCollapsedAway(pane) || activePaneOf(slotOf(pane), paneTabs) !== pane;
    };
    const sizes = (): PaneLayout => {
      const result: Record<string, number> = {};
      for (const [id, panel] of panels.current) result[id] = panel.getSize().asPercentage;
      return result;
    };

    function show(pane: PaneId) {
      if (store.getState().stacked) return;
      const slot = slotOf(pane);
      if (slot.panes.length > 1) store.getState().setPaneTab(slot.id, pane);
      const hiddenBefore = PANE_IDS.filter(isCollapsedAway);
      const column = columnOf(pane);
      if (collapsed(column.id)) handle(column.id)?.expand();
      if (column.slots.length > 1) {
        if (collapsed(slot.id)) handle(slot.id)?.expand();
        // Slots of this column that were hidden (with the column) stay hidden.
        for (const sibling of column.slots) {
          if (sibling !== slot && sibling.panes.every((p) => hiddenBefore.includes(p)))
            handle(sibling.id)?.collapse();
        }
      }
      // Brought forward at a size one can work in, not as a sliver.
      for (const { id, size } of enlargementsFor(pane, sizes())) handle(id)?.resize(String(size));
    }

    function hide(pane: PaneId) {
      const column = columnOf(pane);
      const slot = slotOf(pane);
      const others = column.slots.filter(
        (s) => s !== slot && !s.panes.every((p) => isCollapsedAway(p)),
      );
      if (others.length > 0) handle(slot.id)?.collapse();
      else handle(column.id)?.collapse();
    }

    function restorePanes() {
      const layouts = beforeMaximize.current;
      beforeMaximize.current = null;
      store.getState().setMaximizedPane(null);
      if (layouts === null) return;
      for (const [groupId, layout] of Object.entries(layouts)) {
        groups.current.get(groupId)?.setLayout({ ...layout });
      }
    }

    function maximizePane(pane: PaneId) {
      if (store.getState().maximizedPane !== null) restorePanes();
      if (store.getState().stacked) {
        store.getState().setMaximizedPane(pane);
        return;
      }
      const layouts: Record<string, PaneLayout> = {};
      for (const [groupId, group] of groups.current) layouts[groupId] = group.getLayout();
      beforeMaximize.current = layouts;
      show(pane);
      const target = columnOf(pane);
      const slot = slotOf(pane);
      for (const column of COLUMNS) if (column !== target) handle(column.id)?.collapse();
      if (target.slots.length > 1) {
        for (const sibling of target.slots) if (sibling !== slot) handle(sibling.id)?.collapse();
      }
      store.getState().setMaximizedPane(pane);
    }

    function focusPane(pane: PaneId) {
      const { maximizedPane } = store.getState();
      if (maximizedPane !== null && maximizedPane !== pane) restorePanes();
      show(pane);
      // Focus after the layout has given the pane its size, so it scrolls into view.
      requestAnimationFrame(() => {
        const section = sections.current.get(pane);
        section?.focus();
        if (store.getState().stacked) section?.scrollIntoView({ block: 'start' });
      });
    }

    function togglePane(pane: PaneId) {
      if (store.getState().stacked || isHidden(pane)) {
        focusPane(pane);
        return;
      }
      const visible = PANE_IDS.filter((p) => !isHidden(p));
      if (visible.length <= 1) return;
      if (store.getState().maximizedPane !== null) restorePanes();
      hide(pane);
    }

    return {
      focusPane,
      togglePane,
      maximizePane,
      restorePanes,
      registerPanel: (id, h) => {
        if (h) panels.current.set(id, h);
        else panels.current.delete(id);
      },
      registerGroup: (id, h) => {
        if (h) groups.current.set(id, h);
        else groups.current.delete(id);
      },
      registerSection: (pane, element) => {
        if (element) sections.current.set(pane, element);
        else sections.current.delete(pane);
      },
    };
  }, [store]);

  // Features ask for a pane through the store (they cannot import the shell).
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const request = state.paneRequest;
        if (request === null || request === previous.paneRequest) return;
        if (request.maximize) api.maximizePane(request.pane);
        api.focusPane(request.pane);
      }),
    [store, api],
  );

  return <WorkbenchContext value={api}>{children}</WorkbenchContext>;
}
