import type { StateCreator } from 'zustand';
import type {
  Project,
  ProjectRepository,
  StoredProject,
  UnsavedEdits,
  UnsavedJournal,
} from '../../core/index.ts';
import { readLayout, recoverEdits, sameLayout, unsavedEdits } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** What keeps edits safe: the journal, the store, this tab's id, ids and the clock. */
export interface UnsavedServices {
  readonly journal: UnsavedJournal;
  readonly repository: ProjectRepository;
  /** This page's id among the tabs. */
  readonly tab: string;
  readonly newId: () => string;
  readonly now: () => string;
}

/** What the page says about edits kept safe: put back after a reload, or met from another tab. */
export interface UnsavedNotice {
  readonly kind: 'info' | 'conflict';
  readonly message: string;
  /** A project the notice offers to open (the other tab's text). */
  readonly open?: { readonly id: string; readonly name: string };
}

export interface UnsavedSlice {
  unsavedNotice: UnsavedNotice | null;
  /**
   * Writes the open project's unsaved edits to the journal now, synchronously (the page calls it
   * when it is hidden or closed, the autosave before each save); clears them when there are none.
   */
  keepUnsaved: () => void;
  /** The stored project with the edits this device kept put back; conflicting ones become copies. */
  recoverUnsaved: (stored: StoredProject) => Promise<Project>;
  /** Another tab wrote `projectId`: a clean open copy of it takes that text, and says so. */
  hearOtherTab: (projectId: string) => Promise<void>;
  /**
   * Another tab wrote the open project since this one last saved, changing files this one changed
   * too: this tab's text becomes a copy (open here); the other tab's stays where it was.
   */
  keepConflictCopy: (project: Project, theirs: StoredProject) => Promise<void>;
  /** The project this device last kept unsaved edits of, to open first at start. */
  newestUnsaved: () => string | undefined;
  dismissUnsavedNotice: () => void;
}

/** What the status bar says when the journal cannot be written. */
export const JOURNAL_FULL =
  'Browser storage is full: a reload or a crash right after typing could lose the last edits. Export the project to keep a copy: Share → Download bundle (.policylab.json).';

/** The name of a copy kept because two tabs changed the same files. */
export const conflictCopyName = (name: string) => `${name} (conflicted copy)`;

/** Builds the slice that keeps typing safe from reloads, crashes and other tabs. */
export function createUnsavedSlice(
  services: UnsavedServices,
): StateCreator<AppState, [], [], UnsavedSlice> {
  const { journal, repository, tab, newId, now } = services;
  return (set, get) => {
    const putCopy = async (name: string, files: Project['files'], layout?: Project['layout']) => {
      const at = now();
      const id = newId();
      const copy = { name: conflictCopyName(name), files, ...(layout ? { layout } : {}) };
      await repository.put({ id, ...copy, createdAt: at, updatedAt: at });
      return { id, project: copy };
    };
    return {
      unsavedNotice: null,

      keepUnsaved: () => {
        const { projectId, project, savedFiles, savedExtras, savingFiles, ready } = get();
        if (!ready || projectId === '') return;
        const edits = unsavedEdits(
          { projectId, tab, at: now() },
          project.name,
          project.files,
          savedFiles,
          { now: project.layout, saved: savedExtras.layout },
          savingFiles ?? undefined,
        );
        if (!edits) journal.remove(projectId, tab);
        else if (!journal.write(edits)) {
          // Not fatal: the store still saves them in a moment; a reload just then could lose them.
          set({ storageWarning: JOURNAL_FULL });
        }
      },

      recoverUnsaved: async (stored) => {
        let layout = stored.layout === undefined ? undefined : readLayout(stored.layout).layout;
        let files = stored.files;
        const put: string[] = [];
        const copies: string[] = [];
        const entries = journal
          .list()
          .filter((e) => e.projectId === stored.id)
          .sort((a, b) => a.at.localeCompare(b.at));
        for (const entry of entries) {
          const recovery = recoverEdits(files, entry);
          if (recovery.conflicts.length > 0) {
            // Saved meanwhile by another tab: both texts are kept, the journal's as a copy.
            copies.push((await putCopy(stored.name, recovery.files, layout)).project.name);
          } else if (recovery.changed) {
            files = recovery.files;
            put.push(...Object.keys(entry.files));
          }
          if (recovery.layout !== undefined && recovery.conflicts.length === 0) {
            // Positions the tab moved win over the stored ones; an empty set cleared them all.
            const empty = Object.keys(recovery.layout).length === 0;
            layout = empty ? undefined : { ...layout, ...recovery.layout };
            put.push('graph positions');
          }
          journal.remove(entry.projectId, entry.tab);
        }
        if (put.length > 0 || copies.length > 0) {
          const parts = [
            put.length > 0 &&
              `Put back your changes to “${stored.name}” that were not saved yet (${[...new Set(put)].join(', ')}).`,
            copies.length > 0 &&
              `Edits that another tab had overwritten are kept as “${copies.join('”, “')}”.`,
          ];
          set({ unsavedNotice: { kind: 'info', message: parts.filter(Boolean).join(' ') } });
          if (copies.length > 0) await get().refreshProjects();
        }
        return { name: stored.name, files, ...(layout ? { layout } : {}) };
      },

      hearOtherTab: async (projectId) => {
        await get().refreshProjects();
        const before = get();
        if (before.projectId !== projectId) return;
        const stored = await repository.get(projectId);
        const { project, savedFiles, savedExtras } = get();
        // Something typed or moved here is not lost: the next save merges it.
        const clean =
          project.files === savedFiles &&
          project.name === savedExtras.name &&
          project.layout === savedExtras.layout;
        if (!stored || get().projectId !== projectId || !clean) return;
        const layout = stored.layout === undefined ? undefined : readLayout(stored.layout).layout;
        const same =
          sameFiles(stored.files, project.files) &&
          stored.name === project.name &&
          sameLayout(layout, project.layout);
        if (same) return;
        const theirs: Project = {
          name: stored.name,
          files: stored.files,
          ...(layout && { layout }),
        };
        set({
          project: theirs,
          savedFiles: stored.files,
          savedExtras: { name: theirs.name, layout: theirs.layout },
          unsavedNotice: {
            kind: 'info',
            message: `“${stored.name}” was changed in another tab; this tab now shows that text.`,
          },
        });
      },

      keepConflictCopy: async (project, theirs) => {
        const { id, project: copy } = await putCopy(project.name, project.files, project.layout);
        journal.remove(theirs.id, tab);
        set((state) => ({
          projectId: id,
          project: { ...state.project, name: copy.name },
          savedFiles: project.files,
          savedExtras: { name: copy.name, layout: project.layout },
          history: { ...state.history, projectId: id },
          saveStatus: 'saved',
          unsavedNotice: {
            kind: 'conflict',
            message: `“${theirs.name}” was also changed in another tab. Both texts are kept: the other tab’s stays in “${theirs.name}”; what you typed here is now “${copy.name}”, open in this tab.`,
            open: { id: theirs.id, name: theirs.name },
          },
        }));
        // Anything typed here during the copy's write is kept and saved into the copy.
        get().keepUnsaved();
        // Not awaited: this runs inside a save, and saves wait for one another.
        void get().saveNow();
        await get().refreshProjects();
      },

      newestUnsaved: () =>
        journal
          .list()
          .reduce<UnsavedEdits | undefined>((a, b) => (a && a.at >= b.at ? a : b), undefined)
          ?.projectId,

      dismissUnsavedNotice: () => {
        set({ unsavedNotice: null });
      },
    };
  };
}

function sameFiles(a: Project['files'], b: Project['files']): boolean {
  return (Object.keys(a) as (keyof Project['files'])[]).every((file) => a[file] === b[file]);
}
