import { useCallback } from 'react';
import type { Slot } from '../../state/paneLayout.ts';
import type { PaneId } from '../../state/slices/uiSlice.ts';
import { useAppStore, useSelectors } from '../../state/useAppStore.ts';
import { Icon } from '../../ui/Icon.tsx';
import { PaneFrame } from '../../ui/PaneFrame.tsx';
import { PaneErrorBoundary } from '../PaneErrorBoundary.tsx';
import { PANES, paneShortcut } from '../panes.ts';
import { useWorkbench } from './WorkbenchContext.ts';

/**
 * One pane in its frame, wired to the workbench controller and guarded by an error boundary. In
 * a slot of several panes its title bar carries the others' tabs, and it hides while another
 * pane of the slot is in front.
 */
export function PaneSlot({
  pane,
  slot,
  inactive = false,
}: {
  pane: PaneId;
  slot?: Slot;
  inactive?: boolean;
}) {
  const { title, icon, Component } = PANES[pane];
  const { maximizePane, restorePanes, togglePane, registerSection } = useWorkbench();
  const { selectHiddenPanes } = useSelectors();
  const maximized = useAppStore((s) => s.maximizedPane === pane);
  const canHide = useAppStore(
    (s) => selectHiddenPanes(s).length < 4 || selectHiddenPanes(s).includes(pane),
  );
  const stacked = useAppStore((s) => s.stacked);
  const sectionRef = useCallback(
    (element: HTMLElement | null) => {
      registerSection(pane, element);
    },
    [pane, registerSection],
  );
  const at = slot ? slot.panes.indexOf(pane) : -1;
  const tabs = (panes: readonly PaneId[] | undefined) =>
    panes && panes.length > 0 ? panes.map((p) => <PaneTab key={p} pane={p} />) : undefined;

  return (
    <PaneFrame
      id={pane}
      title={title}
      icon={icon}
      shortcut={paneShortcut(pane)}
      maximized={maximized}
      canHide={canHide && !maximized && !stacked}
      onToggleMaximize={() => {
        if (maximized) restorePanes();
        else maximizePane(pane);
      }}
      onHide={() => {
        togglePane(pane);
      }}
      sectionRef={sectionRef}
      inactive={inactive}
      tabsBefore={tabs(slot?.panes.slice(0, at))}
      tabsAfter={tabs(slot?.panes.slice(at + 1))}
    >
      <PaneErrorBoundary title={title}>
        <Component />
      </PaneErrorBoundary>
    </PaneFrame>
  );
}

/** The tab of a pane waiting behind the one in front: a click (or its Alt+digit) brings it. */
function PaneTab({ pane }: { pane: PaneId }) {
  const { focusPane } = useWorkbench();
  const { title, icon } = PANES[pane];
  return (
    <button
      type="button"
      className="pane-tab"
      title={`${title} (${paneShortcut(pane)})`}
      onClick={() => {
        focusPane(pane);
      }}
      onDoubleClick={(event) => {
        event.stopPropagation();
      }}
    >
      <span className="pane-icon" data-pane-icon={pane}>
        <Icon name={icon} size={12} />
      </span>
      {title}
    </button>
  );
}
