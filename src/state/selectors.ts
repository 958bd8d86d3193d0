import type { ProjectFileName } from '../core/index.ts';
import { PROJECT_FILES } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import type { PaneId, PaneLayout } from './paneLayout.ts';
import { hiddenPanesFrom } from './paneLayout.ts';

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
  let hiddenCache: { sizes: PaneLayout; hidden: readonly PaneId[] } | undefined;
  let dirtyCache: { files: unknown; saved: unknown; dirty: readonly ProjectFileName[] } | undefined;

  /** Panes that take no space right now (collapsed, or inside a collapsed column). */
  function selectHiddenPanes(state: AppState): readonly PaneId[] {
    if (hiddenCache?.sizes !== state.panelSizes) {
      hiddenCache = { sizes: state.panelSizes, hidden: hiddenPanesFrom(state.panelSizes) };
    }
    return hiddenCache.hidden;
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

  return { selectHiddenPanes, selectPaneVisible, selectDirtyFiles };
}
