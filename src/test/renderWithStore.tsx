import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { testServices } from './services.ts';
import { AppStoreProvider } from '../state/AppStoreProvider.tsx';
import { createAppStore } from '../state/createAppStore.ts';

/** Renders a component under a fresh store with in-memory preferences. */
export function renderWithStore(ui: ReactElement, saved: Record<string, string> = {}) {
  const preferences = createMemoryStore(saved);
  const store = createAppStore(testServices({ preferences }));
  return { store, preferences, ...render(<AppStoreProvider store={store}>{ui}</AppStoreProvider>) };
}
