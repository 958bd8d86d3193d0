import type { StateCreator } from 'zustand';
import type { Project, ProjectFileName } from '../../core/index.ts';
import { createProject, normalizeProjectName } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

export interface ProjectSlice {
  project: Project;
  activeFile: ProjectFileName;

  openFile: (name: ProjectFileName) => void;
  setFileText: (name: ProjectFileName, text: string) => void;
  /** Renames the project; returns false (and changes nothing) when the name is blank. */
  renameProject: (raw: string) => boolean;
}

/** Builds the project slice around a starting project. */
export function createProjectSlice(
  initial: Project = createProject('Untitled project'),
): StateCreator<AppState, [], [], ProjectSlice> {
  return (set, get) => ({
    project: initial,
    activeFile: 'agent.md',

    openFile: (activeFile) => {
      set({ activeFile });
    },
    setFileText: (name, text) => {
      const { project } = get();
      if (project.files[name] === text) return;
      set({ project: { ...project, files: { ...project.files, [name]: text } } });
    },
    renameProject: (raw) => {
      const name = normalizeProjectName(raw);
      if (name === undefined) return false;
      set((state) => ({ project: { ...state.project, name } }));
      return true;
    },
  });
}
