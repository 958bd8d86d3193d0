import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './createAppStore.ts';
import type { Selectors } from './selectors.ts';

export const AppStoreContext = createContext<AppStore | null>(null);

/** Reads the store given to the nearest `AppStoreProvider`, for non-React callbacks and effects. */
export function useAppStoreApi(): AppStore {
  const store = useContext(AppStoreContext);
  if (store === null) throw new Error('useAppStore must be used inside <AppStoreProvider>.');
  return store;
}

/** Selects one slice of state; the component re-renders only when that slice changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/** The memoised selectors of the nearest store: `useAppStore(useSelectors().selectPolicyGraph)`. */
export function useSelectors(): Selectors {
  return useAppStoreApi().selectors;
}
