import { useEffect } from 'react';
import type { PaneId } from '../state/slices/uiSlice.ts';
import { PANE_IDS } from '../state/slices/uiSlice.ts';
import { useAppStoreApi } from '../state/useAppStore.ts';
import { useDismissStack } from '../ui/useDismissible.tsx';
import { PANES } from './panes.ts';
import { cyclePane } from '../state/paneLayout.ts';
import { useWorkbench } from './workbench/WorkbenchContext.ts';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('.monaco-editor') !== null
  );
}

function paneWithFocus(): PaneId | undefined {
  const id = document.activeElement?.closest<HTMLElement>('[data-pane]')?.dataset.pane;
  return PANE_IDS.find((p) => p === id);
}

/**
 * The shortcuts of the shell. They listen in the capture phase so they also work while the
 * editor has focus; keys that type text ("?", Esc) are left alone inside text fields and the
 * editor. Escape closes the innermost thing open: a dialog, then a panel (what features register
 * with `useDismissible`), and only then restores a maximised pane.
 */
export function useGlobalShortcuts() {
  const store = useAppStoreApi();
  const { focusPane, maximizePane, restorePanes } = useWorkbench();
  const layers = useDismissStack();

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const { maximizedPane, shortcutsOpen } = store.getState();
      if (event.key === 'Escape' && !event.altKey && !event.ctrlKey && !event.metaKey) {
        if (isTyping(event.target)) return;
        if (layers?.dismissTop()) {
          event.preventDefault();
          event.stopPropagation();
        } else if (maximizedPane !== null) {
          event.preventDefault();
          restorePanes();
          focusPane(maximizedPane);
        }
        return;
      }
      if (shortcutsOpen) return;

      const digit = /^Digit([1-9])$/.exec(event.code)?.[1];
      if (event.altKey && !event.ctrlKey && !event.metaKey && digit !== undefined) {
        const pane = PANE_IDS.find((p) => PANES[p].digit === Number(digit));
        if (pane) {
          event.preventDefault();
          focusPane(pane);
        }
        return;
      }
      if (event.key === 'F6' && !event.altKey && !event.ctrlKey && !event.metaKey) {
        const next = cyclePane(
          paneWithFocus(),
          store.selectors.selectCollapsedPanes(store.getState()),
          event.shiftKey ? -1 : 1,
        );
        if (next) {
          event.preventDefault();
          focusPane(next);
        }
        return;
      }
      if (event.altKey && event.code === 'KeyM' && !event.ctrlKey && !event.metaKey) {
        const pane = maximizedPane ?? paneWithFocus();
        if (pane) {
          event.preventDefault();
          if (maximizedPane === pane) restorePanes();
          else maximizePane(pane);
          focusPane(pane);
        }
        return;
      }
      if (isTyping(event.target)) return;
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        store.getState().setShortcutsOpen(true);
      }
    }
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => {
      window.removeEventListener('keydown', onKeyDown, { capture: true });
    };
  }, [store, layers, focusPane, maximizePane, restorePanes]);
}
