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
