import type { ReactNode } from 'react';
import { useEffect, useMemo, useRef } from 'react';
import type { PanelImperativeHandle } from 'react-resizable-panels';
import type { PaneId } from '../../state/slices/uiSlice.ts';
import { PANE_IDS } from '../../state/slices/uiSlice.ts';
import { useAppStoreApi } from '../../state/useAppStore.ts';
import { COLUMNS, columnOf } from '../../state/paneLayout.ts';
import type { WorkbenchApi } from './WorkbenchContext.ts';
import { WorkbenchContext } from './WorkbenchContext.ts';

/**
 * Owns the imperative handles of the resizable panels and turns "show", "hide", "maximize" and
 * "focus" into calls on them. Which panes are hidden is read back from the panels' sizes (see
 * `hiddenPanesFrom`), so dragging a pane shut and clicking its toggle end in the same state.
 */
export function WorkbenchProvider({ children }: { children: ReactNode }) {
  const store = useAppStoreApi();
  const panels = useRef(new Map<string, PanelImperativeHandle>());
  const sections = useRef(new Map<PaneId, HTMLElement>());
  /** Panels that maximizing collapsed, to expand again on restore. */
  const collapsedByMaximize = useRef<string[]>([]);

  const api = useMemo<WorkbenchApi>(() => {
    const handle = (id: string) => panels.current.get(id);
    const collapsed = (id: string) => handle(id)?.isCollapsed() === true;
    // Asked of the panels themselves: the store hears of size changes a moment later.
    const isHidden = (pane: PaneId) => {
      const column = columnOf(pane);
      return collapsed(column.id) || (column.panes.length > 1 && collapsed(pane));
    };

    function show(pane: PaneId) {
      const hiddenBefore = PANE_IDS.filter(isHidden);
      const column = columnOf(pane);
      if (collapsed(column.id)) handle(column.id)?.expand();
      if (column.panes.length > 1) {
        if (collapsed(pane)) handle(pane)?.expand();
        // Panes of this column that were hidden (with the column) stay hidden.
        for (const sibling of column.panes) {
          if (sibling !== pane && hiddenBefore.includes(sibling)) handle(sibling)?.collapse();
        }
      }
    }

    function hide(pane: PaneId) {
      const column = columnOf(pane);
      const others = column.panes.filter((p) => p !== pane && !isHidden(p));
      if (others.length > 0) handle(pane)?.collapse();
      else handle(column.id)?.collapse();
    }

    function restorePanes() {
      for (const id of collapsedByMaximize.current) handle(id)?.expand();
      collapsedByMaximize.current = [];
      store.getState().setMaximizedPane(null);
    }

    function maximizePane(pane: PaneId) {
      if (store.getState().maximizedPane !== null) restorePanes();
      show(pane);
      const target = columnOf(pane);
      const collapse: string[] = [];
      for (const column of COLUMNS) {
        if (column !== target) collapse.push(column.id);
      }
      for (const sibling of target.panes) if (sibling !== pane) collapse.push(sibling);
      collapsedByMaximize.current = collapse.filter((id) => !collapsed(id));
      for (const id of collapsedByMaximize.current) handle(id)?.collapse();
      store.getState().setMaximizedPane(pane);
    }

    function focusPane(pane: PaneId) {
      const { maximizedPane } = store.getState();
      if (maximizedPane !== null && maximizedPane !== pane) restorePanes();
      if (isHidden(pane)) show(pane);
      // Focus after the layout has given the pane its size, so it scrolls into view.
      requestAnimationFrame(() => sections.current.get(pane)?.focus());
    }

    function togglePane(pane: PaneId) {
      if (isHidden(pane)) {
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
