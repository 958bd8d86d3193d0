import type { StateCreator } from 'zustand';
import type { KeyValueStore } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { PaneId, PaneLayout, PaneTabs } from '../paneLayout.ts';
import { GROUP_IDS, LAYOUT_VERSION, panelIdsOf, parseLayout, parseTabs } from '../paneLayout.ts';

export type { PaneId, PaneLayout, PaneTabs } from '../paneLayout.ts';
export { PANE_IDS, WORKBENCH_GROUP } from '../paneLayout.ts';

export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

const THEME_KEY = 'policylab.theme';
/** Saved sizes carry the arrangement's version: the old arrangement's keys are never read. */
const LAYOUT_KEY_PREFIX = `policylab.layout.v${LAYOUT_VERSION}.`;
const TABS_KEY = `${LAYOUT_KEY_PREFIX}tabs`;

export interface UiSlice {
  /** The page shows a run and changes nothing (the standalone viewer): what would write is hidden. */
  readonly readOnly: boolean;
  themePreference: ThemePreference;
  systemPrefersDark: boolean;
  /** The size of every workbench panel (columns and panes), in percent of its group. */
  panelSizes: PaneLayout;
  /** The pane each tabbed slot shows (Simulate, Replay and Share share one). */
  paneTabs: PaneTabs;
  /** The window is too narrow for columns: the panes stack and the page scrolls. */
  stacked: boolean;
  maximizedPane: PaneId | null;
  shortcutsOpen: boolean;
  projectsOpen: boolean;
  /** Bumped by `resetLayout` so the workbench remounts with its default sizes. */
  layoutGeneration: number;
  /** A message for the status bar when preferences could not be saved. */
  storageWarning: string | null;
  /** A pane a feature asked to bring forward (the shell shows and focuses it); `seq` tells repeats apart. */
  paneRequest: {
    readonly pane: PaneId;
    readonly seq: number;
    readonly maximize?: boolean;
  } | null;

  setThemePreference: (preference: ThemePreference) => void;
  setSystemPrefersDark: (dark: boolean) => void;
  reportPanelSize: (panelId: string, percent: number) => void;
  setMaximizedPane: (pane: PaneId | null) => void;
  /** Brings a pane to the front of its tabbed slot, remembered across visits. */
  setPaneTab: (slotId: string, pane: PaneId) => void;
  setStacked: (stacked: boolean) => void;
  setShortcutsOpen: (open: boolean) => void;
  setProjectsOpen: (open: boolean) => void;
  readLayout: (groupId: string) => PaneLayout | undefined;
  writeLayout: (groupId: string, layout: PaneLayout) => void;
  resetLayout: () => void;
  reportStorageProblem: (reason: 'full' | 'unavailable') => void;
  /** Asks the shell to show a pane and move focus into it (features cannot reach the workbench). */
  showPane: (pane: PaneId, options?: { maximize?: boolean }) => void;
}

function readThemePreference(preferences: KeyValueStore): ThemePreference {
  const saved = preferences.getItem(THEME_KEY);
  return THEME_PREFERENCES.find((p) => p === saved) ?? 'system';
}

/**
 * Builds the UI slice; `preferences` remembers the theme and pane sizes across visits. A
 * `readOnly` page (the standalone viewer) offers nothing that writes.
 */
export function createUiSlice(
  preferences: KeyValueStore,
  readOnly = false,
): StateCreator<AppState, [], [], UiSlice> {
  const layoutKeys = new Set<string>();
  const readLayout = (groupId: string) => {
    layoutKeys.add(groupId);
    return parseLayout(preferences.getItem(LAYOUT_KEY_PREFIX + groupId), panelIdsOf(groupId));
  };
  // Known before the first render, so a pane saved as hidden never loads its code on startup.
  const savedSizes = Object.assign({}, ...GROUP_IDS.map(readLayout)) as PaneLayout;
  return (set, get) => ({
    readOnly,
    themePreference: readThemePreference(preferences),
    systemPrefersDark: false,
    panelSizes: savedSizes,
    paneTabs: parseTabs(preferences.getItem(TABS_KEY)),
    stacked: false,
    maximizedPane: null,
    shortcutsOpen: false,
    projectsOpen: false,
    layoutGeneration: 0,
    storageWarning: null,
    paneRequest: null,

    setThemePreference: (themePreference) => {
      preferences.setItem(THEME_KEY, themePreference);
      set({ themePreference });
    },
    setSystemPrefersDark: (systemPrefersDark) => {
      set({ systemPrefersDark });
    },
    reportPanelSize: (panelId, percent) => {
      const { panelSizes } = get();
      if (panelSizes[panelId] !== percent)
        set({ panelSizes: { ...panelSizes, [panelId]: percent } });
    },
    setMaximizedPane: (maximizedPane) => {
      set({ maximizedPane });
    },
    setPaneTab: (slotId, pane) => {
      const { paneTabs } = get();
      if (paneTabs[slotId] === pane) return;
      const next = { ...paneTabs, [slotId]: pane };
      preferences.setItem(TABS_KEY, JSON.stringify(next));
      set({ paneTabs: next });
    },
    setStacked: (stacked) => {
      if (get().stacked !== stacked) set({ stacked });
    },
    setShortcutsOpen: (shortcutsOpen) => {
      set({ shortcutsOpen });
    },
    setProjectsOpen: (projectsOpen) => {
      set({ projectsOpen });
    },
    readLayout,
    writeLayout: (groupId, layout) => {
      layoutKeys.add(groupId);
      preferences.setItem(LAYOUT_KEY_PREFIX + groupId, JSON.stringify(layout));
    },
    resetLayout: () => {
      for (const groupId of layoutKeys) preferences.removeItem(LAYOUT_KEY_PREFIX + groupId);
      preferences.removeItem(TABS_KEY);
      set((state) => ({
        layoutGeneration: state.layoutGeneration + 1,
        maximizedPane: null,
        panelSizes: {},
        paneTabs: {},
      }));
    },
    showPane: (pane, options) => {
      set((state) => ({
        paneRequest: {
          pane,
          seq: (state.paneRequest?.seq ?? 0) + 1,
          ...(options?.maximize && { maximize: true }),
        },
      }));
    },
    reportStorageProblem: (reason) => {
      set({
        storageWarning:
          reason === 'full'
            ? 'Browser storage is full: layout and theme will not be remembered.'
            : 'Browser storage is turned off: layout and theme will not be remembered.',
      });
    },
  });
}
