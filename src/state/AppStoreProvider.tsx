import type { ReactNode } from 'react';
import type { AppStore } from './createAppStore.ts';
import { AppStoreContext } from './useAppStore.ts';

/** Makes one store available to the components below it. */
export function AppStoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <AppStoreContext value={store}>{children}</AppStoreContext>;
}
