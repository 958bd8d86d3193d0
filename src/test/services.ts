import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { createMemoryRepository } from '../adapters/storage/projectRepository.ts';
import type { ExampleLibrary } from '../core/index.ts';
import { analyzeProject } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import type { AppServices } from '../state/createAppStore.ts';

/** An example library holding the mini project as "mini". */
export const testExamples: ExampleLibrary = {
  examples: [{ id: 'mini', name: 'Mini refund desk', summary: 'A tiny project for tests.' }],
  loadBundle: (path) => Promise.reject(new Error(`No bundle at ${path} in tests.`)),
  load: (id) =>
    id === 'mini'
      ? Promise.resolve(MINI_FILES)
      : Promise.reject(new Error(`There is no example called "${id}".`)),
};

/** Services for a store under test: memory storage, the mini example, counted ids, a fixed clock. */
export function testServices(overrides: Partial<AppServices> = {}): AppServices {
  let id = 0;
  let tick = 0;
  return {
    preferences: createMemoryStore(),
    repository: createMemoryRepository(),
    examples: testExamples,
    newId: () => `p${++id}`,
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString(),
    autosaveDelayMs: 0,
    analyze: (project) => Promise.resolve(analyzeProject(project)),
    ...overrides,
  };
}
