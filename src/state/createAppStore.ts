import { createStore } from 'zustand/vanilla';
import type { KeyValueStore, Project } from '../core/index.ts';
import type { ProjectSlice } from './slices/projectSlice.ts';
import { createProjectSlice } from './slices/projectSlice.ts';
import type { UiSlice } from './slices/uiSlice.ts';
import { createUiSlice } from './slices/uiSlice.ts';

/** The outside world the store talks to, passed in by the app (or by a test). */
export interface AppServices {
  readonly preferences: KeyValueStore;
}

export type AppState = UiSlice & ProjectSlice;
export type AppStore = ReturnType<typeof createAppStore>;

/** Creates a fresh store; each page load and each test gets its own. */
export function createAppStore(services: AppServices, initial: { project?: Project } = {}) {
  return createStore<AppState>()((...args) => ({
    ...createUiSlice(services.preferences)(...args),
    ...createProjectSlice(initial.project)(...args),
  }));
}
