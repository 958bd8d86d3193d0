import type { ComponentType } from 'react';
import { AuthorPane } from '../features/author/AuthorPane.tsx';
import { GraphPane } from '../features/graph/GraphPane.tsx';
import { ReplayPane } from '../features/replay/ReplayPane.tsx';
import { SharePane } from '../features/share/SharePane.tsx';
import { SimulatePane } from '../features/simulate/SimulatePane.tsx';
import type { PaneId } from '../state/slices/uiSlice.ts';
import type { IconName } from '../ui/Icon.tsx';

/** How the shell shows one job's pane. */
export interface PaneInfo {
  readonly title: string;
  readonly icon: IconName;
  /** The digit of the Alt+digit shortcut that jumps to the pane. */
  readonly digit: number;
  readonly Component: ComponentType;
}

/** The five jobs of DESIGN.md, in the order of their shortcuts. */
export const PANES: Readonly<Record<PaneId, PaneInfo>> = {
  author: { title: 'Author', icon: 'author', digit: 1, Component: AuthorPane },
  graph: { title: 'Graph', icon: 'graph', digit: 2, Component: GraphPane },
  simulate: { title: 'Simulate', icon: 'simulate', digit: 3, Component: SimulatePane },
  replay: { title: 'Replay', icon: 'replay', digit: 4, Component: ReplayPane },
  share: { title: 'Share', icon: 'share', digit: 5, Component: SharePane },
};

/** The label of the shortcut that jumps to a pane, e.g. "Alt+1". */
export function paneShortcut(pane: PaneId): string {
  return `Alt+${PANES[pane].digit}`;
}
