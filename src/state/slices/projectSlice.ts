import type { StateCreator } from 'zustand';
import type {
  EditHistory,
  EditOrigin,
  Project,
  ProjectExtras,
  ProjectFileName,
} from '../../core/index.ts';
import {
  EMPTY_HISTORY,
  PROJECT_FILES,
  canStep,
  createProject,
  normalizeProjectName,
  recordEdit,
  redoStep,
  undoStep,
} from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** A request to show a place in a file: the editor opens the file and moves there. */
export interface RevealRequest {
  readonly file: ProjectFileName;
  readonly line: number;
  readonly column: number;
  /** Increases with every request, so asking twice for one place still moves the cursor. */
  readonly seq: number;
  /** Whether the editor takes the keyboard focus (not when the graph asks, so keys stay there). */
  readonly focus: boolean;
}

/** Where an undo or redo changed the text, for the editor to select and show. */
export interface RestoredSpan {
  readonly file: ProjectFileName;
  readonly at: number;
  readonly length: number;
  readonly seq: number;
}

/** How an edit is recorded in the undo history. */
export interface EditMeta {
  readonly origin: EditOrigin;
  /** Says what the step did, e.g. "Connect a and b" (shown in the undo button's tooltip). */
  readonly label?: string;
}

export interface ProjectSlice {
  /** The id under which the project is saved; changes when another project is opened. */
  projectId: string;
  project: Project;
  /** The file texts as last saved, to mark files with unsaved changes. */
  savedFiles: Project['files'];
  /** The name and hand-placed positions as last saved (what another tab's save is merged against). */
  savedExtras: ProjectExtras;
  /** The file texts a save under way is writing; null when none is (see unsavedEdits). */
  savingFiles: Project['files'] | null;
  activeFile: ProjectFileName;
  reveal: RevealRequest | null;
  /** The undo history of the open project (one for every view: editor, graph, commands). */
  history: EditHistory & { readonly projectId: string };
  /** The last place an undo or redo changed. */
  restored: RestoredSpan | null;

  openFile: (name: ProjectFileName) => void;
  setFileText: (name: ProjectFileName, text: string, meta?: EditMeta) => void;
  /** Replaces several files at once (a rename across files), as one undo step. */
  setFiles: (files: Partial<Record<ProjectFileName, string>>, meta?: EditMeta) => void;
  /** Undoes the newest step that touched `scope` (any file when absent); false if none. */
  undo: (scope?: ProjectFileName) => boolean;
  redo: (scope?: ProjectFileName) => boolean;
  /** Renames the project; returns false (and changes nothing) when the name is blank. */
  renameProject: (raw: string) => boolean;
  revealAt: (file: ProjectFileName, line: number, column: number, focus?: boolean) => void;
}

const PROJECT_FILE_NAMES = PROJECT_FILES.map((f) => f.name);

/** A project's name and hand-placed positions, the parts saved beside its files. */
export function extrasOf(project: Project): ProjectExtras {
  return { name: project.name, layout: project.layout };
}

/** The history of the open project; a history left from another project counts as empty. */
function historyOf(state: ProjectSlice): EditHistory {
  return state.history.projectId === state.projectId ? state.history : EMPTY_HISTORY;
}

/** Whether the open project has a step to undo (`'undo'`) or redo touching `scope`. */
export function canMove(state: ProjectSlice, stack: 'undo' | 'redo', scope?: ProjectFileName) {
  return canStep(historyOf(state)[stack], scope);
}

/** Builds the project slice around a starting project. */
export function createProjectSlice(
  initial: Project = createProject('Untitled project'),
): StateCreator<AppState, [], [], ProjectSlice> {
  return (set, get) => {
    const move = (step: typeof undoStep, scope: ProjectFileName | undefined): boolean => {
      const { project, projectId, restored } = get();
      const history = historyOf(get());
      const result = step(history, project.files, scope);
      if (!result) {
        // A step that no longer matches the text means the history went stale: drop it rather
        // than fail on every later Ctrl+Z.
        const stack = step === undoStep ? history.undo : history.redo;
        if (canStep(stack, scope)) set({ history: { ...EMPTY_HISTORY, projectId } });
        return false;
      }
      set({
        project: { ...project, files: result.files },
        history: { ...result.history, projectId },
        restored: { ...result.focus, seq: (restored?.seq ?? 0) + 1 },
      });
      return true;
    };
    return {
      projectId: '',
      project: initial,
      savedFiles: initial.files,
      savedExtras: extrasOf(initial),
      savingFiles: null,
      activeFile: 'agent.md',
      reveal: null,
      history: { ...EMPTY_HISTORY, projectId: '' },
      restored: null,

      openFile: (activeFile) => {
        set({ activeFile });
      },
      setFileText: (name, text, meta) => {
        get().setFiles({ [name]: text }, meta);
      },
      setFiles: (changed, meta = { origin: 'command' }) => {
        const { project, projectId } = get();
        const files = { ...project.files, ...changed };
        if (PROJECT_FILE_NAMES.every((name) => files[name] === project.files[name])) return;
        const history = recordEdit(historyOf(get()), project.files, files, {
          origin: meta.origin,
          label: meta.label ?? 'Edit',
          time: Date.now(),
        });
        set({ project: { ...project, files }, history: { ...history, projectId } });
      },
      undo: (scope) => move(undoStep, scope),
      redo: (scope) => move(redoStep, scope),
      renameProject: (raw) => {
        const name = normalizeProjectName(raw);
        if (name === undefined) return false;
        set((state) => ({ project: { ...state.project, name } }));
        return true;
      },
      revealAt: (file, line, column, focus = true) => {
        set((state) => ({
          activeFile: file,
          reveal: { file, line, column, focus, seq: (state.reveal?.seq ?? 0) + 1 },
        }));
      },
    };
  };
}
