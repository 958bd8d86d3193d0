// The public surface of core: the page, workers and the CLI import from here.
export type { KeyValueStore } from './ports.ts';
export type { Project, ProjectFileInfo, ProjectFileLanguage, ProjectFileName } from './project.ts';
export {
  MAX_PROJECT_NAME_LENGTH,
  PROJECT_FILES,
  createProject,
  isProjectFileName,
  normalizeProjectName,
} from './project.ts';
