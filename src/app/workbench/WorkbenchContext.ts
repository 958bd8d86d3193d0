import { createContext, useContext } from 'react';
import type { GroupImperativeHandle, PanelImperativeHandle } from 'react-resizable-panels';
import type { PaneId } from '../../state/slices/uiSlice.ts';

/** What the header, the shortcuts and the pane frames can ask of the workbench. */
export interface WorkbenchApi {
  /** Shows the pane if hidden (restoring a maximized layout if needed) and moves focus into it. */
  focusPane: (pane: PaneId) => void;
  /**
   * Hides a visible pane or shows a hidden one; the last visible pane cannot be hidden. Panes
   * stacked in a narrow window are never hidden: the toggle goes to the pane.
   */
  togglePane: (pane: PaneId) => void;
  maximizePane: (pane: PaneId) => void;
  restorePanes: () => void;
  /** Called by the workbench as its panels, groups and pane sections mount and unmount. */
  registerPanel: (id: string, handle: PanelImperativeHandle | null) => void;
  registerGroup: (id: string, handle: GroupImperativeHandle | null) => void;
  registerSection: (pane: PaneId, element: HTMLElement | null) => void;
}

export const WorkbenchContext = createContext<WorkbenchApi | null>(null);

/** The workbench controller of the enclosing `WorkbenchProvider`. */
export function useWorkbench(): WorkbenchApi {
  const api = useContext(WorkbenchContext);
  if (api === null) throw new Error('useWorkbench must be used inside <WorkbenchProvider>.');
  return api;
}
