import type { StateCreator } from 'zustand';
import type {
  ExampleInfo,
  ExampleLibrary,
  ExtrasMerge,
  Project,
  ProjectRepository,
  ProjectSummary,
  StoredProject,
} from '../../core/index.ts';
import {
  PROJECT_FILES,
  createProject,
  mergeExtras,
  mergeFiles,
  normalizeProjectName,
  parseBundle,
  projectFromFiles,
  readLayout,
  sameLayout,
} from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import { extrasOf } from './projectSlice.ts';

/** What the library needs from outside: storage, examples, ids and the clock. */
export interface LibraryServices {
  readonly repository: ProjectRepository;
  readonly examples: ExampleLibrary;
  readonly newId: () => string;
  readonly now: () => string;
  /**
   * Runs `run` while no other tab of this app runs one under the same name (the Web Locks API in
   * the page), so two tabs never both read the stored project before either writes it. Absent:
   * `run` simply runs (one tab, tests).
   */
  readonly exclusive?: <T>(name: string, run: () => Promise<T>) => Promise<T>;
}

/** How the page was opened: a fresh project, an example, a given project, or the last one. */
export interface BootRequest {
  readonly example?: string;
  /** A bundle file served by the app, opened as a new project. */
  readonly bundle?: string;
  /** A share link's fragment: its project opens as a new one (nothing else is made first). */
  readonly link?: string;
  readonly fresh?: boolean;
  readonly projectId?: string;
}

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

export interface LibrarySlice {
  ready: boolean;
  projects: readonly ProjectSummary[];
  saveStatus: SaveStatus;
  /** A problem to tell the user about (a failed save, a failed download), or null. */
  libraryError: string | null;
  /** The last deleted project, kept until the next delete so it can be restored. */
  deleted: StoredProject | null;

  boot: (request: BootRequest) => Promise<void>;
  refreshProjects: () => Promise<void>;
  openProject: (id: string) => Promise<void>;
  newProject: () => Promise<void>;
  /** Saves the open project, then opens this one as a new project of its own. */
  openNewProject: (project: Project) => Promise<void>;
  openExample: (exampleId: string) => Promise<void>;
  duplicateProject: (id: string) => Promise<void>;
  deleteProject: (id: string) => Promise<void>;
  /** Renames a stored project, open or not; a blank name changes nothing. */
  renameStored: (id: string, name: string) => Promise<void>;
  undoDelete: () => Promise<void>;
  /** Writes the open project now; the autosave calls it, and so does the page on hide. */
  saveNow: () => Promise<void>;
  dismissLibraryError: () => void;
  forgetDeleted: () => void;
  /** The examples the gallery offers. */
  exampleList: readonly ExampleInfo[];
}

/** The project a stored record holds, with hand-placed positions checked (storage may be old). */
function projectOf(stored: StoredProject): Project {
  const project = { name: stored.name, files: stored.files };
  return stored.layout === undefined
    ? project
    : { ...project, layout: readLayout(stored.layout).layout };
}

/** Builds the slice that keeps projects on this device and opens them. */
export function createLibrarySlice(
  services: LibraryServices,
): StateCreator<AppState, [], [], LibrarySlice> {
  const { repository, examples, newId, now } = services;

  return (set, get) => {
    const stored = (project: Project, id: string, createdAt = now()): StoredProject => ({
      id,
      name: project.name,
      files: project.files,
      ...(project.layout ? { layout: project.layout } : {}),
      createdAt,
      updatedAt: now(),
    });

    /** Shows a project in the editor; `saved` says whether it is already on disk. */
    const show = (id: string, project: Project, saved: boolean) => {
      set({
        projectId: id,
        project,
        savedFiles: saved ? project.files : ({} as Project['files']),
        savedExtras: saved ? extrasOf(project) : { name: '', layout: undefined },
        savingFiles: null,
        activeFile: 'agent.md',
        reveal: null,
        ready: true,
      });
    };

    /** Shows a stored project with the edits this device kept unsaved put back, and saves them. */
    const showStored = async (found: StoredProject) => {
      const project = await get().recoverUnsaved(found);
      show(found.id, project, true);
      const saved = projectOf(found);
      if (project.files === found.files && sameLayout(project.layout, saved.layout)) return;
      set({ savedFiles: found.files, savedExtras: extrasOf(saved) });
      get().keepUnsaved();
      await get().saveNow();
    };

    // One save at a time: a save compares the stored text with the last one this tab wrote.
    let inFlight: Promise<void> | undefined;

    const saveOnce = async () => {
      const { projectId, project, savedFiles, savedExtras, ready } = get();
      if (!ready || projectId === '') return;
      const unchanged =
        savedFiles === project.files &&
        savedExtras.name === project.name &&
        savedExtras.layout === project.layout;
      if (unchanged) return;
      set({ saveStatus: 'saving' });
      try {
        // Read, merge and write as one step no other tab comes between.
        const write = async () => {
          const existing = await repository.get(projectId);
          // Another tab may have written since this one last did: what it changed is merged in,
          // file by file; a file both changed keeps both texts (this tab's as a copy). Its new
          // name and moved policies are merged in the same way.
          const merge = existing && mergeFiles(savedFiles, project.files, existing.files);
          if (existing && merge && merge.conflicts.length > 0) {
            await get().keepConflictCopy(project, existing);
            return;
          }
          const files = merge?.files ?? project.files;
          // A reload while the write is under way may find these texts stored (unsavedSlice).
          set({ savingFiles: files });
          const extras = existing
            ? mergeExtras(savedExtras, extrasOf(project), extrasOf(projectOf(existing)))
            : { ...extrasOf(project), tookName: false, tookPositions: [] };
          const { name, layout } = extras;
          await repository.put(
            stored({ name, files, ...(layout && { layout }) }, projectId, existing?.createdAt),
          );
          const taken = PROJECT_FILE_NAMES.filter((file) => files[file] !== project.files[file]);
          const took = tookWords(taken, extras);
          // Only mark as saved what was written; typing during the write stays unsaved.
          set((state) => ({
            project: withTaken(state.project, project, { name, files, ...(layout && { layout }) }),
            savedFiles: taken.length === 0 ? project.files : files,
            savedExtras: { name, layout },
            savingFiles: null,
            saveStatus: 'saved',
            libraryError: null,
            ...(took !== undefined && {
              unsavedNotice: {
                kind: 'info' as const,
                message: `“${name}” was also changed in another tab; merged in here: ${took}.`,
              },
            }),
          }));
          if (existing?.name !== name) await get().refreshProjects();
        };
        if (services.exclusive) await services.exclusive(`policylab-save:${projectId}`, write);
        else await write();
      } catch (error) {
        set({ saveStatus: 'error', savingFiles: null });
        // Kept on this device another way, for the next load to put back.
        get().keepUnsaved();
        fail(
          new Error(
            `Your last changes could not be saved on this device (${error instanceof Error ? error.message : String(error)}). They are still open here; free some space, or export the project: Share → Download bundle (.policylab.json).`,
          ),
        );
      }
    };

    const fail = (error: unknown) => {
      set({ libraryError: error instanceof Error ? error.message : String(error) });
    };

    const createAndOpen = async (project: Project) => {
      const id = newId();
      show(id, project, false);
      await get().saveNow();
      await get().refreshProjects();
    };

    const fromExample = async (exampleId: string): Promise<Project> => {
      const info = examples.examples.find((e) => e.id === exampleId);
      const files = await examples.load(exampleId);
      return projectFromFiles(info?.name ?? exampleId, files).project;
    };

    return {
      ready: false,
      projects: [],
      saveStatus: 'idle',
      libraryError: null,
      deleted: null,

      boot: async (request) => {
        // Why a bundle asked for did not open, told once the page has opened without it.
        let bundleError: string | undefined;
        try {
          if (request.example !== undefined) {
            await createAndOpen(await fromExample(request.example));
            return;
          }
          if (request.link !== undefined) {
            await get().openShared(request.link);
            // A link that cannot open says why; the page then opens as it would without it.
            if (get().ready) return;
          }
          if (request.bundle !== undefined) {
            // A bundle that cannot open says why; the page then opens as it would without it,
            // and no empty project is made in its place.
            const loaded = await examples.loadBundle(request.bundle).then(
              (text) => parseBundle(text),
              (error: unknown) => ({
                error: error instanceof Error ? error.message : String(error),
              }),
            );
            if (!('error' in loaded)) {
              await createAndOpen(loaded.project);
              return;
            }
            bundleError = `${request.bundle}: ${loaded.error}`;
          }
          if (request.fresh === true) {
            await createAndOpen(createProject('Untitled project'));
            return;
          }
          // The project asked for (this tab's, on a reload), else the one whose edits were kept
          // unsaved (after a crash), else the newest.
          let latest: StoredProject | undefined;
          for (const id of [request.projectId, get().newestUnsaved()]) {
            latest ??= id === undefined ? undefined : await repository.get(id);
          }
          latest ??= await firstStored(repository);
          if (latest) {
            await showStored(latest);
            await get().refreshProjects();
            return;
          }
          await createAndOpen(await fromExample(examples.examples[0]?.id ?? 'airline'));
        } catch (error) {
          // Storage or the network failed: still give the user a project to work in.
          fail(error);
          if (!get().ready) show(newId(), createProject('Untitled project'), false);
        } finally {
          if (bundleError !== undefined) set({ libraryError: bundleError });
        }
      },

      refreshProjects: async () => {
        try {
          set({ projects: await repository.list() });
        } catch (error) {
          fail(error);
        }
      },

      openProject: async (id) => {
        await get().saveNow();
        try {
          await showStored(await storedOrGone(repository, id));
        } catch (error) {
          fail(error);
        }
      },

      newProject: async () => {
        await get().saveNow();
        await createAndOpen(createProject('Untitled project'));
      },

      openNewProject: async (project) => {
        await get().saveNow();
        await createAndOpen(project);
      },

      openExample: async (exampleId) => {
        await get().saveNow();
        try {
          await createAndOpen(await fromExample(exampleId));
        } catch (error) {
          fail(error);
        }
      },

      duplicateProject: async (id) => {
        await get().saveNow();
        try {
          const source = await storedOrGone(repository, id);
          await createAndOpen({ ...projectOf(source), name: `${source.name} (copy)` });
        } catch (error) {
          fail(error);
        }
      },

      deleteProject: async (id) => {
        try {
          const victim = await repository.get(id);
          if (!victim) return;
          await repository.remove(id);
          set({ deleted: victim });
          await get().refreshProjects();
          if (get().projectId === id) {
            const next = await firstStored(repository);
            if (next) await showStored(next);
            else await createAndOpen(createProject('Untitled project'));
          }
        } catch (error) {
          fail(error);
        }
      },

      renameStored: async (id, name) => {
        if (id === get().projectId) {
          if (get().renameProject(name)) await get().saveNow();
          return;
        }
        const clean = normalizeProjectName(name);
        if (clean === undefined) return;
        try {
          const found = await repository.get(id);
          if (!found) return;
          await repository.put({ ...found, name: clean, updatedAt: now() });
          await get().refreshProjects();
        } catch (error) {
          fail(error);
        }
      },

      undoDelete: async () => {
        const { deleted } = get();
        if (!deleted) return;
        try {
          await repository.put(deleted);
          set({ deleted: null });
          await get().refreshProjects();
        } catch (error) {
          fail(error);
        }
      },

      saveNow: () => {
        const next = inFlight ? inFlight.then(saveOnce) : saveOnce();
        inFlight = next;
        void next.finally(() => {
          if (inFlight === next) inFlight = undefined;
        });
        return next;
      },

      dismissLibraryError: () => {
        set({ libraryError: null });
      },
      forgetDeleted: () => {
        set({ deleted: null });
      },
      exampleList: examples.examples,
    };
  };
}

/**
 * The open project with what another tab changed (and this one had not) taken in: files, the name
 * and positions. What was typed or moved here since the save began wins, and is saved next.
 */
function withTaken(current: Project, sent: Project, merged: Project): Project {
  const files = { ...current.files };
  let changed = false;
  for (const name of PROJECT_FILE_NAMES) {
    if (merged.files[name] !== sent.files[name] && current.files[name] === sent.files[name]) {
      files[name] = merged.files[name];
      changed = true;
    }
  }
  const name = current.name === sent.name ? merged.name : current.name;
  const moved = merged.layout !== sent.layout && current.layout === sent.layout;
  if (!changed && name === current.name && !moved) return current;
  const { layout: _old, ...rest } = current;
  const layout = moved ? merged.layout : current.layout;
  return { ...rest, name, files: changed ? files : current.files, ...(layout && { layout }) };
}

/** What a save took from another tab, in words: "its changes to agent.md and its new name". */
function tookWords(files: readonly string[], extras: ExtrasMerge): string | undefined {
  const moved = extras.tookPositions.length;
  const parts = [
    ...(files.length > 0 ? [`its changes to ${files.join(', ')}`] : []),
    ...(extras.tookName ? ['its new name'] : []),
    ...(moved > 0 ? [`where it put ${moved} polic${moved === 1 ? 'y' : 'ies'} on the graph`] : []),
  ];
  if (parts.length <= 1) return parts[0];
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

const PROJECT_FILE_NAMES = PROJECT_FILES.map((file) => file.name);

async function firstStored(repository: ProjectRepository): Promise<StoredProject | undefined> {
  const [latest] = await repository.list();
  return latest ? repository.get(latest.id) : undefined;
}

/** The stored project, or an error a person understands (another tab may have deleted it). */
async function storedOrGone(repository: ProjectRepository, id: string): Promise<StoredProject> {
  const found = await repository.get(id);
  if (!found) throw new Error('That project is no longer on this device.');
  return found;
}
