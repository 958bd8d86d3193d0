import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { StorageProblem } from '../adapters/storage/preferences.ts';
import { browserLocalStorage, createWebStorageStore } from '../adapters/storage/preferences.ts';
import { createAppStore } from '../state/createAppStore.ts';
import { AppStoreProvider } from '../state/AppStoreProvider.tsx';
import { App } from './App.tsx';
import './theme.css';
import '../ui/ui.css';
import './app.css';

// Problems met while the store is being created are held until it can show them.
const early: StorageProblem[] = [];
let reportProblem = (problem: StorageProblem) => {
  early.push(problem);
};
const preferences = createWebStorageStore(browserLocalStorage(), (problem) => {
  reportProblem(problem);
});
const store = createAppStore({ preferences });
reportProblem = (problem) => {
  store.getState().reportStorageProblem(problem.reason);
};
early.forEach(reportProblem);

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <AppStoreProvider store={store}>
      <App />
    </AppStoreProvider>
  </StrictMode>,
);
