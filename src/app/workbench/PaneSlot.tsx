import { useCallback } from 'react';
import type { PaneId } from '../../state/slices/uiSlice.ts';
import { useAppStore, useSelectors } from '../../state/useAppStore.ts';
import { PaneFrame } from '../../ui/PaneFrame.tsx';
import { PaneErrorBoundary } from '../PaneErrorBoundary.tsx';
import { PANES, paneShortcut } from '../panes.ts';
import { useWorkbench } from './WorkbenchContext.ts';

/** One pane in its frame, wired to the workbench controller and guarded by an error boundary. */
export function PaneSlot({ pane }: { pane: PaneId }) {
  const { title, icon, Component } = PANES[pane];
  const { maximizePane, restorePanes, togglePane, registerSection } = useWorkbench();
  const { selectHiddenPanes } = useSelectors();
  const maximized = useAppStore((s) => s.maximizedPane === pane);
  const canHide = useAppStore(
    (s) => selectHiddenPanes(s).length < 4 || selectHiddenPanes(s).includes(pane),
  );
  const sectionRef = useCallback(
    (element: HTMLElement | null) => {
      registerSection(pane, element);
    },
    [pane, registerSection],
  );

  return (
    <PaneFrame
      id={pane}
      title={title}
      icon={icon}
      shortcut={paneShortcut(pane)}
      maximized={maximized}
      canHide={canHide && !maximized}
      onToggleMaximize={() => {
        if (maximized) restorePanes();
        else maximizePane(pane);
      }}
      onHide={() => {
        togglePane(pane);
      }}
      sectionRef={sectionRef}
    >
      <PaneErrorBoundary title={title}>
        <Component />
      </PaneErrorBoundary>
    </PaneFrame>
  );
}
