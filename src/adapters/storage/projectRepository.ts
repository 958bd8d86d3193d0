import type { Dexie, EntityTable } from 'dexie';
import type { ProjectRepository, ProjectSummary, StoredProject } from '../../core/index.ts';

type ProjectDatabase = Dexie & { projects: EntityTable<StoredProject, 'id'> };

/**
 * Keeps projects in IndexedDB (through Dexie). Version 1 of the schema: one table of projects
 * indexed by id and by time of last change.
 */
export function createIndexedDbRepository(name = 'policylab'): ProjectRepository {
  // Dexie loads with the first read, so it does not weigh on the first paint.
  let opened: Promise<ProjectDatabase> | undefined;
  const open = () =>
    (opened ??= import('dexie').then(({ Dexie: DexieClass }) => {
      const db = new DexieClass(name) as ProjectDatabase;
      db.version(1).stores({ projects: 'id, updatedAt' });
      return db;
    }));
  return {
    async list() {
      const db = await open();
      const all = await db.projects.orderBy('updatedAt').reverse().toArray();
      return all.map(summary);
    },
    async get(id) {
      return (await open()).projects.get(id);
    },
    async put(project) {
      await (await open()).projects.put(project);
    },
    async remove(id) {
      await (await open()).projects.delete(id);
    },
  };
}

/** Keeps projects in memory: for tests, and where IndexedDB is unavailable. */
export function createMemoryRepository(initial: readonly StoredProject[] = []): ProjectRepository {
  const projects = new Map(initial.map((p) => [p.id, p]));
  return {
    list: () =>
      Promise.resolve(
        [...projects.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).map(summary),
      ),
    get: (id) => Promise.resolve(projects.get(id)),
    put: (project) => {
      projects.set(project.id, project);
      return Promise.resolve();
    },
    remove: (id) => {
      projects.delete(id);
      return Promise.resolve();
    },
  };
}

function summary(project: StoredProject): ProjectSummary {
  return { id: project.id, name: project.name, updatedAt: project.updatedAt };
}

/** Whether this browser lets the page open IndexedDB at all (private modes may not). */
export function indexedDbAvailable(): boolean {
  try {
    return typeof indexedDB !== 'undefined';
  } catch {
    return false;
  }
}
