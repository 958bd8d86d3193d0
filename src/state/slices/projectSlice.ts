import type { StateCreator } from 'zustand';
import type { Project, ProjectFileName } from '../../core/index.ts';
import { createProject, normalizeProjectName } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** A request to show a place in a file: the editor opens the file and moves there. */
export interface RevealRequest {
  readonly file: ProjectFileName;
  readonly line: number;
  readonly column: number;
  /** Increases with every request, so asking twice for one place still moves the cursor. */
  readonly seq: number;
}

export interface ProjectSlice {
  /** The id under which the project is saved; changes when another project is opened. */
  projectId: string;
  project: Project;
  /** The file texts as last saved, to mark files with unsaved changes. */
  savedFiles: Project['files'];
  activeFile: ProjectFileName;
  reveal: RevealRequest | null;

  openFile: (name: ProjectFileName) => void;
  setFileText: (name: ProjectFileName, text: string) => void;
  /** Replaces several files at once (a rename across files), as one change. */
  setFiles: (files: Partial<Record<ProjectFileName, string>>) => void;
  /** Renames the project; returns false (and changes nothing) when the name is blank. */
  renameProject: (raw: string) => boolean;
  revealAt: (file: ProjectFileName, line: number, column: number) => void;
}

/** Builds the project slice around a starting project. */
export function createProjectSlice(
  initial: Project = createProject('Untitled project'),
): StateCreator<AppState, [], [], ProjectSlice> {
  return (set, get) => ({
    projectId: '',
    project: initial,
    savedFiles: initial.files,
    activeFile: 'agent.md',
    reveal: null,

    openFile: (activeFile) => {
      set({ activeFile });
    },
    setFileText: (name, text) => {
      const { project } = get();
      if (project.files[name] === text) return;
      set({ project: { ...project, files: { ...project.files, [name]: text } } });
    },
    setFiles: (files) => {
      const { project } = get();
      set({ project: { ...project, files: { ...project.files, ...files } } });
    },
    renameProject: (raw) => {
      const name = normalizeProjectName(raw);
      if (name === undefined) return false;
      set((state) => ({ project: { ...state.project, name } }));
      return true;
    },
    revealAt: (file, line, column) => {
      set((state) => ({
        activeFile: file,
        reveal: { file, line, column, seq: (state.reveal?.seq ?? 0) + 1 },
      }));
    },
  });
}
