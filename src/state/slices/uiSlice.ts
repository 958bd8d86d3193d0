import type { StateCreator } from 'zustand';
import type { KeyValueStore } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { PaneId, PaneLayout } from '../paneLayout.ts';
import { COLUMNS } from '../paneLayout.ts';

export type { PaneId, PaneLayout } from '../paneLayout.ts';
export { PANE_IDS } from '../paneLayout.ts';

export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

const THEME_KEY = 'policylab.theme';
const LAYOUT_KEY_PREFIX = 'policylab.layout.';
/** The id of the outer, horizontal group of columns. */
export const WORKBENCH_GROUP = 'workbench';

export interface UiSlice {
  /** The page shows a run and changes nothing (the standalone viewer): what would write is hidden. */
  readonly readOnly: boolean;
  themePreference: ThemePreference;
  systemPrefersDark: boolean;
  /** The size of every workbench panel (columns and panes), in percent of its group. */
  panelSizes: PaneLayout;
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
  setShortcutsOpen: (open: boolean) => void;
  setProjectsOpen: (open: boolean) => void;
  readLayout: (groupId: string) => PaneLayout | undefined;
  writeLayout: (groupId: string, layout: PaneLayout) => void;
  resetLayout: () => void;
  reportStorageProblem: (reason: 'full' | 'unavailable') => void;
  /** Asks the shell to show a pane and move focus into it (features cannot reach the workbench). */
  showPane: (pane: PaneId, options?: { maximize?: boolean }) => void;
}

/** Parses a saved layout, returning `undefined` for anything that is not a map of sizes. */
export function parseLayout(text: string | null): PaneLayout | undefined {
  if (text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  const valid = entries.every(
    ([, size]) => typeof size === 'number' && Number.isFinite(size) && size >= 0 && size <= 100,
  );
  return valid && entries.length > 0 ? (Object.fromEntries(entries) as PaneLayout) : undefined;
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
    return parseLayout(preferences.getItem(LAYOUT_KEY_PREFIX + groupId));
  };
  // Known before the first render, so a pane saved as hidden never loads its code on startup.
  const savedSizes = Object.assign(
    {},
    ...[WORKBENCH_GROUP, ...COLUMNS.map((c) => c.id)].map(readLayout),
  ) as PaneLayout;
  return (set, get) => ({
    readOnly,
    themePreference: readThemePreference(preferences),
    systemPrefersDark: false,
    panelSizes: savedSizes,
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
      set((state) => ({
        layoutGeneration: state.layoutGeneration + 1,
        maximizedPane: null,
        panelSizes: {},
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
