import type { StoreApi } from 'zustand/vanilla';
import { createStore } from 'zustand/vanilla';
import type {
  ExampleLibrary,
  KeyValueStore,
  Project,
  ProjectRepository,
  RunRepository,
  TabChannel,
  UnsavedJournal,
} from '../core/index.ts';
import { createMemoryJournal } from '../adapters/storage/unsavedJournal.ts';
import { silentTabChannel } from '../adapters/tabChannel.ts';
import type { Analyzer } from '../workers/analysisClient.ts';
import { Superseded } from '../workers/analysisClient.ts';
import { layoutInThread } from '../workers/layoutClient.ts';
import type { DomainImporter } from '../workers/importClient.ts';
import { importInThread } from '../workers/importClient.ts';
import type { IdeAsk } from '../workers/ideClient.ts';
import { ideInThread } from '../workers/ideClient.ts';
import type { Simulator } from '../workers/simulationClient.ts';
import { simulateInThread } from '../workers/simulationClient.ts';
import { createSelectors } from './selectors.ts';
import type { AnalysisSlice, AnalysisTrigger } from './slices/analysisSlice.ts';
import type { IdeSlice } from './slices/ideSlice.ts';
import { createIdeSlice } from './slices/ideSlice.ts';
import type { AssistLogSlice } from './slices/assistLogSlice.ts';
import { createAssistLogSlice } from './slices/assistLogSlice.ts';
import type { AttackSlice } from './slices/attackSlice.ts';
import { createAttackSlice } from './slices/attackSlice.ts';
import type { CompareSlice } from './slices/compareSlice.ts';
import type { ExtractSlice } from './slices/extractSlice.ts';
import { createExtractSlice } from './slices/extractSlice.ts';
import { createCompareSlice } from './slices/compareSlice.ts';
import { createAnalysisSlice } from './slices/analysisSlice.ts';
import type { GraphRunSlice } from './slices/graphRunSlice.ts';
import { createGraphRunSlice } from './slices/graphRunSlice.ts';
import type { RelateSlice } from './slices/relateSlice.ts';
import { createRelateSlice } from './slices/relateSlice.ts';
import type { GraphSlice, Layouter } from './slices/graphSlice.ts';
import { createGraphSlice } from './slices/graphSlice.ts';
import type { LibrarySlice } from './slices/librarySlice.ts';
import type { LocalModelSlice } from './slices/localModelSlice.ts';
import { createLocalModelSlice } from './slices/localModelSlice.ts';
import type { ModelServices, ModelsSlice } from './slices/modelsSlice.ts';
import type { PlaySlice } from './slices/playSlice.ts';
import { createPlaySlice } from './slices/playSlice.ts';
import type { ReplaySlice } from './slices/replaySlice.ts';
import type { ShareSlice } from './slices/shareSlice.ts';
import { createShareSlice } from './slices/shareSlice.ts';
import { createReplaySlice } from './slices/replaySlice.ts';
import type { SimulationSlice } from './slices/simulationSlice.ts';
import { createSimulationSlice } from './slices/simulationSlice.ts';
import { createModelsSlice } from './slices/modelsSlice.ts';
import type { GuardDraftSlice } from './slices/guardDraftSlice.ts';
import { createGuardDraftSlice } from './slices/guardDraftSlice.ts';
import { createLibrarySlice } from './slices/librarySlice.ts';
import type { ProjectSlice } from './slices/projectSlice.ts';
import { createProjectSlice } from './slices/projectSlice.ts';
import type { Scheduler } from './scheduler.ts';
import { platformScheduler } from './scheduler.ts';
import type { UiSlice } from './slices/uiSlice.ts';
import type { UnsavedSlice } from './slices/unsavedSlice.ts';
import { createUnsavedSlice } from './slices/unsavedSlice.ts';
import { autosave, joinTabs } from './keepEdits.ts';
import { createUiSlice } from './slices/uiSlice.ts';

/** The outside world the store talks to, passed in by the app (or by a test). */
export interface AppServices {
  readonly preferences: KeyValueStore;
  readonly repository: ProjectRepository;
  /** Runs a save while no other tab saves the same project (Web Locks in the page). */
  readonly exclusive?: <T>(name: string, run: () => Promise<T>) => Promise<T>;
  readonly examples: ExampleLibrary;
  readonly newId?: () => string;
  readonly now?: () => string;
  /** How long edits settle before they are saved, in milliseconds. */
  readonly autosaveDelayMs?: number;
  /** How long steady typing goes unsaved at most, in milliseconds (a crash loses no more). */
  readonly autosaveMaxWaitMs?: number;
  /** Where unsaved edits are written at once, to survive a reload or a crash; memory when absent. */
  readonly journal?: UnsavedJournal;
  /** The other tabs of this app; none when absent. */
  readonly tabs?: TabChannel;
  /** This page's id among the tabs; a random one when absent. */
  readonly tab?: string;
  /** How long edits settle before they are analysed again, in milliseconds. */
  readonly analysisDelayMs?: number;
  /** The timers for those waits; the platform's when absent. */
  readonly scheduler?: Scheduler;
  /** Reads and lints projects (in a worker in the page, in-thread in tests). */
  readonly analyze: Analyzer;
  /** Answers the editor's definition, references and rename (in a worker in the page); in-thread when absent. */
  readonly ide?: IdeAsk;
  /** Lays out the policy graph (in a worker in the page); in-thread when absent. */
  readonly layout?: Layouter;
  /** Imports a dropped tau2-bench or IntellAgent domain (in a worker in the page); in-thread when absent. */
  readonly importDomain?: DomainImporter;
  /** Model engines (remote endpoints, the in-browser engine); without them no model can run. */
  readonly models?: ModelServices;
  /** Where simulation runs are kept; without it runs live in memory only. */
  readonly runs?: RunRepository;
  /** Runs simulations (in a worker in the page, in-thread in tests and when absent). */
  readonly simulate?: Simulator;
  /** Runs a game of Play, on this thread so the model's words stream in; in-thread when absent. */
  readonly simulatePlay?: Simulator;
  /** The standalone viewer's page (one HTML file) that a run is written into; absent: no such page. */
  readonly viewerTemplate?: () => Promise<string>;
}

export type AppState = UiSlice &
  ProjectSlice &
  LibrarySlice &
  AnalysisSlice &
  IdeSlice &
  GraphSlice &
  GraphRunSlice &
  RelateSlice &
  ModelsSlice &
  LocalModelSlice &
  SimulationSlice &
  PlaySlice &
  ReplaySlice &
  CompareSlice &
  ShareSlice &
  AttackSlice &
  GuardDraftSlice &
  ExtractSlice &
  AssistLogSlice &
  UnsavedSlice;
export type AppStore = ReturnType<typeof createAppStore>;

/**
 * Creates a fresh store with its own memoised selectors; each page load and each test gets one.
 * A `readOnly` store (the standalone viewer's) offers nothing that writes.
 */
export function createAppStore(
  services: AppServices,
  initial: { project?: Project; readOnly?: boolean } = {},
) {
  const newId = services.newId ?? (() => crypto.randomUUID());
  const now = services.now ?? (() => new Date().toISOString());
  const tab = services.tab ?? newTabId();
  const analysisTrigger: AnalysisTrigger = { now: () => undefined };
  const store = createStore<AppState>()((...args) => ({
    ...createUiSlice(services.preferences, initial.readOnly)(...args),
    ...createProjectSlice(initial.project)(...args),
    ...createLibrarySlice({
      repository: services.repository,
      examples: services.examples,
      newId,
      now,
      ...(services.exclusive && { exclusive: services.exclusive }),
    })(...args),
    ...createAnalysisSlice(analysisTrigger)(...args),
    ...createIdeSlice(services.ide ?? ideInThread)(...args),
    ...createGraphSlice(services.layout ?? layoutInThread)(...args),
    ...createGraphRunSlice(services.runs)(...args),
    ...createRelateSlice(services.models, services.preferences)(...args),
    ...createModelsSlice(services.preferences, services.models, newId)(...args),
    ...createLocalModelSlice(
      services.models?.local,
      services.models?.clock ?? (() => 0),
      services.preferences,
    )(...args),
    ...createSimulationSlice(
      services.runs,
      services.models,
      newId,
      now,
      services.simulate,
      services.scheduler ?? platformScheduler,
    )(...args),
    // A game is one person-paced dialogue: it runs on this thread, so the model's words stream.
    ...createPlaySlice(
      services.runs,
      services.models,
      services.simulatePlay ?? simulateInThread,
      newId,
      now,
      services.scheduler ?? platformScheduler,
    )(...args),
    ...createReplaySlice(services.runs, newId, now, services.viewerTemplate)(...args),
    ...createCompareSlice(services.runs, newId, now)(...args),
    ...createShareSlice(services.repository, services.importDomain ?? importInThread)(...args),
    ...createAttackSlice(services.models)(...args),
    ...createGuardDraftSlice(services.models)(...args),
    ...createExtractSlice(services.models)(...args),
    ...createAssistLogSlice(services.runs, now)(...args),
    ...createUnsavedSlice({
      journal: services.journal ?? createMemoryJournal(),
      repository: services.repository,
      tab,
      newId,
      now,
    })(...args),
  }));
  const scheduler = services.scheduler ?? platformScheduler;
  const delayMs = services.autosaveDelayMs ?? 250;
  // A crash during steady typing loses at most the last 400 ms (the write itself takes a moment).
  autosave(store, scheduler, {
    delayMs,
    maxWaitMs: services.autosaveMaxWaitMs ?? Math.max(delayMs, 400),
  });
  joinTabs(store, services.tabs ?? silentTabChannel, tab);
  analyzeOnChange(
    store,
    scheduler,
    services.analyze,
    services.analysisDelayMs ?? 120,
    analysisTrigger,
  );
  // Each project has its own Assist log, read when the project opens.
  store.subscribe((state, previous) => {
    if (state.projectId !== previous.projectId) void state.loadAssistLog();
  });
  // The memoised selectors belong to this store, so another store never overwrites their memory.
  return Object.assign(store, { selectors: createSelectors() });
}

/**
 * Re-analyses the project whenever its files change; only the newest answer is kept. `trigger`
 * gets the way to analyse the current text at once (someone waits for it); a text whose analysis
 * failed is analysed again when asked.
 */
function analyzeOnChange(
  store: StoreApi<AppState>,
  scheduler: Scheduler,
  analyze: Analyzer,
  delayMs: number,
  trigger: AnalysisTrigger,
) {
  let asked: Project['files'] | undefined;
  const run = () => {
    const { project } = store.getState();
    if (project.files === asked) return;
    asked = project.files;
    analyze(project).then(
      (analysis) => {
        if (store.getState().project.files === project.files) {
          store.getState().setAnalysis(analysis, project.files);
        }
      },
      (error: unknown) => {
        if (error instanceof Superseded) return;
        if (asked === project.files) asked = undefined;
        store.getState().setAnalysisError(error instanceof Error ? error.message : String(error));
      },
    );
  };
  // Typing fast sends one request per pause, not one per keystroke: a large project crosses
  // to the worker and back as a whole.
  let timer: unknown;
  store.subscribe((state, previous) => {
    if (state.project.files === previous.project.files) return;
    scheduler.clearTimeout(timer);
    timer = scheduler.setTimeout(run, delayMs);
  });
  trigger.now = () => {
    scheduler.clearTimeout(timer);
    run();
  };
  run();
}

/** A random id for this page among the tabs (`crypto.randomUUID` exists in secure contexts only). */
function newTabId(): string {
  try {
    return crypto.randomUUID();
  } catch {
    return `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  }
}
