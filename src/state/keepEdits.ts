import type { StoreApi } from 'zustand/vanilla';
import type { TabChannel } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import type { Scheduler } from './scheduler.ts';

/** How long autosave waits for typing to pause, and how long at most while it does not. */
export interface AutosaveTiming {
  readonly delayMs: number;
  /** Steady typing never pauses: a save starts at the latest this long after the first unsaved edit. */
  readonly maxWaitMs: number;
}

/**
 * Saves the open project a moment after each change settles, and at the latest `maxWaitMs` after
 * the first change not yet saved; before each save the edits go to the journal at once, so a crash
 * during the (asynchronous) write still leaves them.
 */
export function autosave(store: StoreApi<AppState>, scheduler: Scheduler, timing: AutosaveTiming) {
  let settle: unknown;
  let deadline: unknown;
  const save = () => {
    scheduler.clearTimeout(settle);
    scheduler.clearTimeout(deadline);
    deadline = undefined;
    store.getState().keepUnsaved();
    void store.getState().saveNow();
  };
  store.subscribe((state, previous) => {
    if (state.project === previous.project || state.projectId !== previous.projectId) return;
    scheduler.clearTimeout(settle);
    settle = scheduler.setTimeout(save, timing.delayMs);
    deadline ??= scheduler.setTimeout(save, timing.maxWaitMs);
  });
  // A save that leaves edits unsaved (typing during the write) keeps the journal up to date.
  store.subscribe((state, previous) => {
    const saved =
      state.savedFiles !== previous.savedFiles || state.savedExtras !== previous.savedExtras;
    if (saved && state.projectId === previous.projectId) {
      state.keepUnsaved();
    }
  });
}

/** Tells other tabs of each save of this one, and hears theirs. */
export function joinTabs(store: StoreApi<AppState>, tabs: TabChannel, tab: string) {
  store.subscribe((state, previous) => {
    if (state.saveStatus === 'saved' && previous.saveStatus === 'saving') {
      tabs.post({ kind: 'saved', projectId: state.projectId, tab });
    }
  });
  return tabs.listen((message) => {
    if (message.tab !== tab) void store.getState().hearOtherTab(message.projectId);
  });
}
