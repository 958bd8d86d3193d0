import type { StateCreator } from 'zustand';
import type {
  ImportReport,
  LoadNote,
  Project,
  ProjectRepository,
  ShareView,
} from '../../core/index.ts';
import {
  importTooLarge,
  parseBundle,
  projectFileNamed,
  projectFromFiles,
  projectHash,
} from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { DomainImporter } from '../../workers/importClient.ts';

/** A file brought into the page: picked, dropped, or one of a dropped folder's files. */
export interface IncomingFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** A project that just arrived from a link or a file: shown with "Undo", which deletes it. */
export interface Arrival {
  readonly id: string;
  readonly name: string;
  readonly from: 'link' | 'file';
  /** The project open before, reopened by Undo. */
  readonly previous: string | null;
  readonly notes: readonly LoadNote[];
}

/** What the page says about something shared: a refusal, or a project already here. */
export interface ShareNotice {
  readonly kind: 'error' | 'duplicate';
  readonly message: string;
  /** The project already here, for "Open it". */
  readonly projectId?: string;
}

export interface ShareSlice {
  arrival: Arrival | null;
  shareNotice: ShareNotice | null;
  /** The report of the last tau2-bench or IntellAgent domain imported, while it is shown. */
  importReport: ImportReport | null;
  /** Whether the import report's dialog is open (it can be opened again from the notice). */
  importReportOpen: boolean;
  /** Opens a share link or a bundle's text as a new project (never over the open one). */
  openShared: (input: string) => Promise<void>;
  /**
   * Opens files: a bundle, a zip, a run's log (JSON or gzip), a folder's six files, or a
   * tau2-bench or IntellAgent domain (its folder's files or a zip of it), imported as a project.
   */
  importFiles: (files: readonly IncomingFile[]) => Promise<void>;
  /** Deletes the project that just arrived and reopens the one open before. */
  undoArrival: () => Promise<void>;
  dismissArrival: () => void;
  dismissShareNotice: () => void;
  showImportReport: (open: boolean) => void;
}

const decoder = new TextDecoder();

/** A project's identity for "you already have this": its files, whatever its name. */
const sameFiles = (a: Project['files'], b: Project['files']) => projectHash(a) === projectHash(b);

/**
 * Builds the share slice: links, bundles, zips and run files come in here. Whatever arrives opens
 * as a new project with an Undo, or says clearly why it cannot; the open project is never touched.
 */
export function createShareSlice(
  repository: ProjectRepository,
  importDomain: DomainImporter,
): StateCreator<AppState, [], [], ShareSlice> {
  return (set, get) => {
    /** The stored project with these files, if there is one. */
    const alreadyHere = async (files: Project['files']) => {
      for (const summary of await repository.list()) {
        const stored = await repository.get(summary.id);
        if (stored && sameFiles(stored.files, files)) return stored;
      }
      return undefined;
    };

    const arrive = async (
      project: Project,
      from: Arrival['from'],
      notes: readonly LoadNote[],
      view?: ShareView,
    ) => {
      try {
        const here = await alreadyHere(project.files);
        if (here) {
          set({
            shareNotice: {
              kind: 'duplicate',
              message: `You already have this project here, as “${here.name}”. Nothing new was made.`,
              projectId: here.id,
            },
          });
          if (here.id !== get().projectId) await get().openProject(here.id);
        } else {
          const previous = get().projectId === '' ? null : get().projectId;
          await get().openNewProject(project);
          set({
            arrival: { id: get().projectId, name: project.name, from, previous, notes },
            shareNotice: null,
          });
        }
      } catch (error) {
        set({ shareNotice: { kind: 'error', message: messageOf(error) } });
        return;
      }
      if (view) applyView(view);
    };

    /** Shows what a link asked for: the graph maximised, a policy, a filter, a sample. */
    const applyView = (view: ShareView) => {
      const state = get();
      if (view.search !== undefined || view.tool !== undefined)
        state.setGraphFilters({
          ...(view.search !== undefined && { search: view.search }),
          ...(view.tool !== undefined && { tool: view.tool }),
        });
      if (view.sample) state.highlightPolicies(view.sample);
      if (view.policy !== undefined) {
        state.selectPolicy(view.policy, { centre: true });
        state.setDetailsOpen(true);
      }
      if (view.maximize === 'graph') state.showPane('graph', { maximize: true });
    };

    const refuse = (message: string) => {
      set({ shareNotice: { kind: 'error', message } });
    };

    return {
      arrival: null,
      shareNotice: null,
      importReport: null,
      importReportOpen: false,

      openShared: async (input) => {
        set({ shareNotice: null });
        const text = input.trim();
        if (text === '') return;
        // Links and zips are unpacked by code the first page does not need to load.
        const { decodeShareLink, isShareLink } = await import('../../core/share/link.ts');
        if (isShareLink(text)) {
          const link = decodeShareLink(text);
          if (!link.ok) refuse(link.error);
          else await arrive(link.project, 'link', link.notes, link.view);
          return;
        }
        if (text.startsWith('{')) {
          const bundle = parseBundle(text);
          if ('error' in bundle) refuse(bundle.error);
          else await arrive(bundle.project, 'file', bundle.notes);
          return;
        }
        refuse('This is neither a PolicyLab link nor a bundle’s text.');
      },

      importFiles: async (files) => {
        set({ shareNotice: null, importReport: null, importReportOpen: false });
        const big = files
          .map((f) => importTooLarge(f.name, f.bytes.length))
          .find((problem) => problem !== undefined);
        if (big) {
          refuse(big);
          return;
        }
        // A tau2-bench or IntellAgent domain: recognised here by its paths, imported off-thread.
        const { holdsDomain } = await import('../../core/import/drop.ts');
        if (holdsDomain(files)) {
          const imported = await importDomain(files);
          if (imported.kind === 'error') {
            refuse(`These files cannot be imported: ${imported.message}`);
            return;
          }
          if (imported.kind === 'domain') {
            await arrive(imported.project, 'file', []);
            if (get().shareNotice?.kind !== 'error')
              set({ importReport: imported.report, importReportOpen: true });
            return;
          }
        }
        // Project files, and files named like them another way (Agent.md, policies.yml).
        const loose = files.filter((f) => projectFileNamed(baseName(f.name)) !== undefined);
        if (files.length > 1 || (files.length === 1 && loose.length === 1)) {
          if (loose.length === 0) {
            refuse(
              'None of these files is a project file (agent.md, policies.yaml, …), and they are not a tau2-bench domain (data/policy.md, data/tasks.json, src/tools.py …) or an IntellAgent input (wiki.md, tools/*.py, data/*.csv).',
            );
            return;
          }
          // The rest are named in the notes as left out, never read.
          const texts = Object.fromEntries(
            files.map((f) => [baseName(f.name), loose.includes(f) ? decoder.decode(f.bytes) : '']),
          );
          const folder = folderName(loose[0]?.name ?? '') ?? 'Dropped project';
          const { project, notes } = projectFromFiles(folder, texts);
          await arrive(project, 'file', notes);
          return;
        }
        const [file] = files;
        if (!file) return;
        const name = file.name.toLowerCase();
        if (name.endsWith('.zip')) {
          const { unzipProject } = await import('../../core/share/archive.ts');
          const opened = unzipProject(file.bytes, file.name.replace(/\.zip$/i, ''));
          if (!opened.ok) refuse(`“${file.name}” cannot be opened: ${opened.error}`);
          else await arrive(opened.project, 'file', opened.notes);
          return;
        }
        const text = name.endsWith('.gz') ? '' : decoder.decode(file.bytes);
        if (name.endsWith('.gz') || text.trimStart().startsWith('[')) {
          if (name.endsWith('.gz')) await get().importRunBytes(file.name, file.bytes);
          else await get().importRunFile(file.name, text);
          // A run opens in Replay; why it could not is said here too, where the file came in.
          const problem = get().replayMessage;
          if (problem !== null) refuse(problem);
          else get().showPane('replay');
          return;
        }
        const bundle = parseBundle(text);
        if ('error' in bundle) refuse(`“${file.name}” cannot be opened: ${bundle.error}`);
        else await arrive(bundle.project, 'file', bundle.notes);
      },

      undoArrival: async () => {
        const arrival = get().arrival;
        if (!arrival) return;
        set({ arrival: null, importReport: null, importReportOpen: false });
        if (arrival.previous !== null) await get().openProject(arrival.previous);
        await get().deleteProject(arrival.id);
        // Deleting keeps the project for the Projects dialog's own undo; this undo is final.
        get().forgetDeleted();
      },
      dismissArrival: () => {
        set({ arrival: null });
      },
      dismissShareNotice: () => {
        set({ shareNotice: null });
      },
      showImportReport: (open) => {
        set({ importReportOpen: open && get().importReport !== null });
      },
    };
  };
}

/** A path's last part: "folder/agent.md" → "agent.md". */
function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The folder a dropped file came from, when it came from one. */
function folderName(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  return parts.length > 1 ? parts.at(-2) : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
