import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { StorageProblem } from '../adapters/storage/preferences.ts';
import { browserLocalStorage, createWebStorageStore } from '../adapters/storage/preferences.ts';
import { createAppStore } from '../state/createAppStore.ts';
import { AppStoreProvider } from '../state/AppStoreProvider.tsx';
import { createExampleLibrary } from '../adapters/examples.ts';
import { createViewerTemplate } from '../adapters/viewerTemplate.ts';
import wllamaWasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { createLocalModelHost } from '../adapters/models/local/localEngine.ts';
import { createRemoteEngine } from '../adapters/models/remote.ts';
import { monotonicClock, platformRuntime } from '../adapters/models/runtime.ts';
import {
  createIndexedDbRepository,
  createMemoryRepository,
  indexedDbAvailable,
} from '../adapters/storage/projectRepository.ts';
import { createWebStorageJournal } from '../adapters/storage/unsavedJournal.ts';
import { createBroadcastTabChannel } from '../adapters/tabChannel.ts';
import {
  createIndexedDbRunRepository,
  createMemoryRunRepository,
} from '../adapters/storage/runRepository.ts';
import { createWorkerAnalyzer } from '../workers/analysisClient.ts';
import { createLayoutClient } from '../workers/layoutClient.ts';
import { createIdeClient } from '../workers/ideClient.ts';
import { createWorkerImporter } from '../workers/importClient.ts';
import type { SimulationWorker } from '../workers/simulationClient.ts';
import { createWorkerSimulator } from '../workers/simulationClient.ts';
import { readReplayPlace } from '../state/replayAddress.ts';
import { preloadEditor } from '../features/author/AuthorPane.tsx';
import { App } from './App.tsx';
import './theme.css';
import '../ui/ui.css';
import './app.css';

const OPEN_PROJECT_KEY = 'policylab.openProject';

/** Returns `window.sessionStorage` (this tab's own), or `undefined` where touching it throws. */
function browserSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

// Problems met while the store is being created are held until it can show them.
const early: StorageProblem[] = [];
let reportProblem = (problem: StorageProblem) => {
  early.push(problem);
};
const preferences = createWebStorageStore(browserLocalStorage(), (problem) => {
  reportProblem(problem);
});
const repository = indexedDbAvailable() ? createIndexedDbRepository() : createMemoryRepository();
const runs = indexedDbAvailable() ? createIndexedDbRunRepository() : createMemoryRunRepository();
const examples = createExampleLibrary(import.meta.env.BASE_URL);
const analyze = createWorkerAnalyzer(
  () => new Worker(new URL('../workers/analysis.worker.ts', import.meta.url), { type: 'module' }),
);
// Large graphs lay out in a worker, with progress, and a newer layout cancels an older one.
const layoutClient = createLayoutClient();
const store = createAppStore({
  preferences,
  repository,
  // Unsaved edits go to localStorage at once (IndexedDB writes do not outlive a closing page).
  journal: createWebStorageJournal(browserLocalStorage()),
  tabs: createBroadcastTabChannel(),
  // Two tabs saving one project read and write it one after the other, never interleaved.
  exclusive: (name, run) => ('locks' in navigator ? navigator.locks.request(name, run) : run()),
  examples,
  analyze,
  layout: (input, options) => layoutClient.layout(input, options),
  // Go to definition, references and rename parse the whole project: in a worker, on first use.
  ide: createIdeClient(),
  // A dropped domain with a large database is imported off the main thread.
  importDomain: createWorkerImporter(),
  runs,
  // Runs simulate in a worker; each model call comes back to the engines here, keys and all.
  // (A Web Worker has what SimulationWorker asks; its handlers take the wider MessageEvent.)
  simulate: createWorkerSimulator(
    () =>
      new Worker(new URL('../workers/simulation.worker.ts', import.meta.url), {
        type: 'module',
      }) as unknown as SimulationWorker,
  ),
  // Provider SDKs and wllama load on first use; the wasm is served from this build, never a CDN.
  models: {
    remote: (endpoint, key) => createRemoteEngine(endpoint, key),
    local: createLocalModelHost({ wasmUrl: wllamaWasmUrl }),
    runtime: platformRuntime,
    clock: monotonicClock,
  },
  // The standalone viewer a run is written into, fetched from this build when first asked for.
  viewerTemplate: createViewerTemplate(import.meta.env.BASE_URL),
});
reportProblem = (problem) => {
  store.getState().reportStorageProblem(problem.reason);
};
early.forEach(reportProblem);

// The editor is the largest download of a first visit: when the Author pane will show, fetch it
// alongside the project instead of after it.
if (store.selectors.selectPaneVisible('author')(store.getState())) preloadEditor();

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <AppStoreProvider store={store}>
      <App />
    </AppStoreProvider>
  </StrictMode>,
);

// Open what the address asks for (?example=airline, ?bundle=/x.policylab.json, ?new), then drop the request from the
// address so that reloading reopens the saved project instead of making another one. A replay's place
// (?run=…&dialogue=…&step=…) stays: reloading returns to it.
const url = new URL(window.location.href);
const example = url.searchParams.get('example');
const bundle = url.searchParams.get('bundle');
const place = readReplayPlace(url.search);
// A share link carries the project in the fragment (never sent to any server).
const shared = url.hash.startsWith('#p=') ? url.hash : null;
// Each tab remembers the project it has open, so that reloading it reopens that one (another tab
// may have saved a different project since).
const thisTab = createWebStorageStore(browserSessionStorage());
const lastOpen = thisTab.getItem(OPEN_PROJECT_KEY);
store.subscribe((state, previous) => {
  if (state.projectId !== previous.projectId && state.projectId !== '') {
    thisTab.setItem(OPEN_PROJECT_KEY, state.projectId);
  }
});
void store
  .getState()
  .boot({
    ...(example === null ? {} : { example }),
    ...(bundle === null ? {} : { bundle }),
    ...(shared === null ? {} : { link: shared }),
    fresh: url.searchParams.has('new'),
    ...(lastOpen === null ? {} : { projectId: lastOpen }),
  })
  .then(async () => {
    if (!place) return;
    await store.getState().openReplay(place);
    store.getState().showPane('replay');
  });
for (const key of ['example', 'bundle', 'new']) url.searchParams.delete(key);
// Opened once: reloading reopens the saved project, not the link again.
if (shared !== null) url.hash = '';
if (url.href !== window.location.href) window.history.replaceState(null, '', url.href);

// Leaving or hiding the tab writes pending edits at once: to the journal synchronously (a page that
// is going away does not wait for IndexedDB), then to the project store.
const keepAll = () => {
  store.getState().keepUnsaved();
  void store.getState().saveNow();
};
window.addEventListener('pagehide', keepAll);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') keepAll();
});
