import type { ProjectFileName } from '../core/index.ts';
import { PROJECT_FILES } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import type { PaneId } from './paneLayout.ts';
import { PANE_IDS, collapsedPanesFrom, hiddenPanesFrom } from './paneLayout.ts';

/**
 * The shell's memoised selectors of one store, made once by `createAppStore` and read through
 * `useSelectors()` or `store.selectors`. Each remembers its last answer for its own store only,
 * so two stores (two tests, two workbenches) never recompute each other's. The features' own
 * (graph, run report, play, prompts) are made per store the same way, by `perStore`, in their
 * modules, so they load with the feature.
 */
export function createSelectors() {
  return createWorkbenchSelectors();
}

export type Selectors = ReturnType<typeof createSelectors>;

/** The theme the page shows: the user's choice, or the system's when they chose "system". */
export function selectEffectiveTheme(state: AppState): 'light' | 'dark' {
  if (state.themePreference === 'system') return state.systemPrefersDark ? 'dark' : 'light';
  return state.themePreference;
}

export const selectProjectName = (state: AppState) => state.project.name;
export const selectActiveFile = (state: AppState) => state.activeFile;
export const selectThemePreference = (state: AppState) => state.themePreference;

/** Which panes show and which files are unsaved. */
function createWorkbenchSelectors() {
  let hiddenCache: { key: readonly unknown[]; hidden: readonly PaneId[] } | undefined;
  let collapsedCache: { key: readonly unknown[]; collapsed: readonly PaneId[] } | undefined;
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.every((v, i) => v === b[i]);
  let dirtyCache: { files: unknown; saved: unknown; dirty: readonly ProjectFileName[] } | undefined;

  /**
   * Panes that take no space right now: collapsed, inside a collapsed column, or behind another
   * tab of their slot. Stacked in one column (a narrow window) every pane shows, unless one is
   * maximized.
   */
  function selectHiddenPanes(state: AppState): readonly PaneId[] {
    const { panelSizes, paneTabs, stacked, maximizedPane } = state;
    const key = [panelSizes, paneTabs, stacked, stacked && maximizedPane];
    if (!hiddenCache || !same(hiddenCache.key, key)) {
      const hidden = stacked
        ? PANE_IDS.filter((p) => maximizedPane !== null && p !== maximizedPane)
        : hiddenPanesFrom(panelSizes, paneTabs);
      hiddenCache = { key, hidden };
    }
    return hiddenCache.hidden;
  }

  /** Panes collapsed away (not those only behind another tab): F6 skips them. */
  function selectCollapsedPanes(state: AppState): readonly PaneId[] {
    const key = [state.panelSizes, state.stacked];
    if (!collapsedCache || !same(collapsedCache.key, key)) {
      collapsedCache = {
        key,
        collapsed: state.stacked ? [] : collapsedPanesFrom(state.panelSizes),
      };
    }
    return collapsedCache.collapsed;
  }

  /** Whether a pane takes space on screen right now. */
  function selectPaneVisible(pane: PaneId) {
    return (state: AppState) => !selectHiddenPanes(state).includes(pane);
  }

  /** Files whose text differs from what was last saved, in the project's file order. */
  function selectDirtyFiles(state: AppState): readonly ProjectFileName[] {
    const { files } = state.project;
    const saved = state.savedFiles;
    if (dirtyCache?.files !== files || dirtyCache.saved !== saved) {
      dirtyCache = {
        files,
        saved,
        dirty: PROJECT_FILES.map((f) => f.name).filter((name) => files[name] !== saved[name]),
      };
    }
    return dirtyCache.dirty;
  }

  return { selectHiddenPanes, selectCollapsedPanes, selectPaneVisible, selectDirtyFiles };
}
