/** The names of the six files that make up a project (DESIGN.md, "The project"). */
export type ProjectFileName =
  'agent.md' | 'policies.yaml' | 'tools.yaml' | 'database.yaml' | 'rules.yaml' | 'scenarios.yaml';

/** The editor language a project file is written in. */
export type ProjectFileLanguage = 'markdown' | 'yaml';

/** What one project file is for, as shown in the file list and in `policylab --help`. */
export interface ProjectFileInfo {
  readonly name: ProjectFileName;
  readonly language: ProjectFileLanguage;
  readonly summary: string;
}

/** The project's files in the order the IDE lists them. */
export const PROJECT_FILES: readonly ProjectFileInfo[] = [
  {
    name: 'agent.md',
    language: 'markdown',
    summary: 'The system prompt of the agent under test.',
  },
  {
    name: 'policies.yaml',
    language: 'yaml',
    summary: 'Atomic policies and how strongly pairs of them relate.',
  },
  {
    name: 'tools.yaml',
    language: 'yaml',
    summary: 'The tools the agent may call and what they do to the database.',
  },
  {
    name: 'database.yaml',
    language: 'yaml',
    summary: 'Tables: row schemas, keys and seed rows.',
  },
  {
    name: 'rules.yaml',
    language: 'yaml',
    summary: 'Guard rules at each tool call and checks over the transcript.',
  },
  {
    name: 'scenarios.yaml',
    language: 'yaml',
    summary: 'Conversations to simulate and the outcome each one expects.',
  },
];

/** A project as the user edits it: a name and the text of each file. */
export interface Project {
  readonly name: string;
  readonly files: Readonly<Record<ProjectFileName, string>>;
}

/** The longest project name the IDE accepts, in characters (code points). */
export const MAX_PROJECT_NAME_LENGTH = 80;

/**
 * Cleans a project name typed by a person: trims it, folds runs of whitespace, and caps its length.
 * @returns the cleaned name, or `undefined` when nothing printable is left.
 */
export function normalizeProjectName(raw: string): string | undefined {
  // Cut by code points, not UTF-16 units, so an emoji is never split in half.
  const folded = Array.from(raw.replace(/\s+/g, ' ').trim());
  const name = folded.slice(0, MAX_PROJECT_NAME_LENGTH).join('').trim();
  return name === '' ? undefined : name;
}

const STARTER_TEXT: Record<ProjectFileName, (name: string) => string> = {
  'agent.md': (name) =>
    `# ${name}\n\nYou are a helpful assistant. Describe here what the agent does, for whom, and the rules it must follow.\n`,
  'policies.yaml': () => '# Atomic policies the agent must follow.\npolicies: []\nrelations: []\n',
  'tools.yaml': () => '# Tools the agent may call.\ntools: []\n',
  'database.yaml': () => '# Tables the tools read and write.\ntables: []\n',
  'rules.yaml': () => '# Guard rules (by tool) and transcript checks.\nguards: {}\nchecks: []\n',
  'scenarios.yaml': () => '# Scenarios to simulate.\nscenarios: []\n',
};

/**
 * Creates a new, empty project whose files each hold a short starting text.
 * @param name the project's name; falls back to "Untitled project" when blank.
 */
export function createProject(name: string): Project {
  const projectName = normalizeProjectName(name) ?? 'Untitled project';
  const files = Object.fromEntries(
    PROJECT_FILES.map((file) => [file.name, STARTER_TEXT[file.name](projectName)]),
  ) as Record<ProjectFileName, string>;
  return { name: projectName, files };
}

/** Tells whether a string names one of the project's files. */
export function isProjectFileName(value: string): value is ProjectFileName {
  return PROJECT_FILES.some((file) => file.name === value);
}
