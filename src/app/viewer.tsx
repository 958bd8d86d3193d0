import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ExampleLibrary } from '../core/index.ts';
import { STANDALONE_RUN_ID, readStandaloneRun } from '../core/index.ts';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { createMemoryRepository } from '../adapters/storage/projectRepository.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import { createAppStore } from '../state/createAppStore.ts';
import { AppStoreProvider } from '../state/AppStoreProvider.tsx';
import { RunViewer } from './RunViewer.tsx';
import './theme.css';
import '../ui/ui.css';
import './app.css';
import '../features/simulate/simulate.css';
import '../features/replay/replay.css';
import './viewer.css';

/*
 * The standalone viewer: one HTML file (vite.viewer.config.ts) that shows the run written into it
 * by standaloneRunHtml, opened from disk with no PolicyLab and no network. The page's own store
 * over memory only, read-only: no models, no project, nothing saved.
 */

const NO_EXAMPLES: ExampleLibrary = {
  examples: [],
  load: () => Promise.reject(new Error('This page shows one run; it has no examples.')),
  loadBundle: () => Promise.reject(new Error('This page shows one run; it opens no bundles.')),
};

const runs = createMemoryRunRepository();
const store = createAppStore(
  {
    preferences: createMemoryStore(),
    repository: createMemoryRepository(),
    examples: NO_EXAMPLES,
    // The run's project is not in the page, so nothing is analysed: policies' categories are unknown.
    analyze: () => Promise.reject(new Error('This page holds a run, not its project.')),
    runs,
  },
  { readOnly: true },
);

const read = readStandaloneRun(document.getElementById(STANDALONE_RUN_ID)?.textContent);

/** Puts the page's run where the report and the Replay pane read it, through the store's own actions. */
async function open(): Promise<string | null> {
  if (!read.ok) return read.error;
  const id = 'run';
  await runs.create({
    id,
    projectId: store.getState().projectId,
    createdAt: new Date().toISOString(),
    title: read.title,
  });
  await runs.append(id, 0, read.events);
  await store.getState().refreshRuns();
  await store.getState().openRun(id);
  await store.getState().openReplay({ run: id });
  return store.getState().simulationMessage ?? store.getState().replayMessage;
}

const root = document.getElementById('root');
if (root === null) throw new Error('The viewer page has no #root element.');

void open().then((problem) => {
  createRoot(root).render(
    <StrictMode>
      <AppStoreProvider store={store}>
        <RunViewer title={read.ok ? read.title : 'A PolicyLab run'} problem={problem} />
      </AppStoreProvider>
    </StrictMode>,
  );
});
