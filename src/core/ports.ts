import type { GraphLayout, ProjectFileName } from './project.ts';

/**
 * A small string key-value store, the shape of the Web Storage API's read and write methods.
 * Core and state use it for preferences; adapters back it with localStorage or memory.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A project as it is kept on this device. Times are ISO-8601 strings. */
export interface StoredProject {
  readonly id: string;
  readonly name: string;
  readonly files: Readonly<Record<ProjectFileName, string>>;
  readonly layout?: GraphLayout;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What the project list shows of a stored project. */
export interface ProjectSummary {
  readonly id: string;
  readonly name: string;
  readonly updatedAt: string;
}

/** Where projects are kept (IndexedDB in the page, memory in tests). Methods may reject. */
export interface ProjectRepository {
  /** Every stored project, most recently changed first. */
  list(): Promise<ProjectSummary[]>;
  get(id: string): Promise<StoredProject | undefined>;
  put(project: StoredProject): Promise<void>;
  remove(id: string): Promise<void>;
}

/** An example project the gallery offers. */
export interface ExampleInfo {
  readonly id: string;
  readonly name: string;
  readonly summary: string;
}

/** Where example projects come from (the app's own static files). */
export interface ExampleLibrary {
  readonly examples: readonly ExampleInfo[];
  /** The example's files; rejects with a readable message when they cannot be fetched. */
  load(id: string): Promise<Readonly<Record<string, string>>>;
  /** The text of a bundle file served by the app itself (a path such as `/shared/x.policylab.json`). */
  loadBundle(path: string): Promise<string>;
}

/** A saved simulation run, as the run list shows it. Times are ISO-8601 strings. */
export interface StoredRun {
  readonly id: string;
  readonly projectId: string;
  readonly createdAt: string;
  /** A short description, e.g. "6 scenarios × 2 trials · gpt-4.1-mini". */
  readonly title: string;
}

/**
 * Where runs are kept (IndexedDB in the page, memory in tests): each run's event log is stored
 * as it grows, so a reload mid-run loses nothing that was written. Methods may reject (e.g. a
 * full disk).
 */
export interface RunRepository {
  /** The runs of a project, newest first. */
  list(projectId: string): Promise<StoredRun[]>;
  create(run: StoredRun): Promise<void>;
  /** Appends events; `from` is the index of the first of them in the run's log. */
  append(runId: string, from: number, events: readonly unknown[]): Promise<void>;
  /** The run's whole log, in order. */
  events(runId: string): Promise<unknown[]>;
  remove(runId: string): Promise<void>;
}

/**
 * Timers, passed in wherever something waits (autosave, re-analysis, batching a run's log): the
 * platform's in the page, one a test moves by hand, so waits are tested without sleeping.
 */
export interface Scheduler {
  /** Runs `run` once, `ms` milliseconds from now; returns what `clearTimeout` cancels it by. */
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  /** Cancels a run not made yet; a timer already run or cancelled, or undefined, is ignored. */
  readonly clearTimeout: (timer: unknown) => void;
}
