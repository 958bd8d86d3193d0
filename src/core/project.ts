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

/** A project as the user edits it: a name, the text of each file, and where they put nodes. */
export interface Project {
  readonly name: string;
  readonly files: Readonly<Record<ProjectFileName, string>>;
  /** Graph positions of the policies the user placed by hand; the layout places the rest. */
  readonly layout?: GraphLayout;
}

/** Positions of graph nodes by policy id. */
export type GraphLayout = Readonly<Record<string, { readonly x: number; readonly y: number }>>;

/** Whether two sets of positions place every policy at the same point. */
export function sameLayout(a: GraphLayout | undefined, b: GraphLayout | undefined): boolean {
  const ids = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...ids].every((id) => a?.[id]?.x === b?.[id]?.x && a?.[id]?.y === b?.[id]?.y);
}

/** The most hand-placed positions a project keeps (a hostile bundle cannot make more). */
export const MAX_LAYOUT_ENTRIES = 20_000;

/**
 * The farthest from the origin a hand-placed position may be. A graph is a few thousand units
 * across; positions like 1e308 made every size computed from them Infinity, and nothing was drawn.
 */
export const MAX_LAYOUT_COORDINATE = 1_000_000;

/** What a person is told about positions `readLayout` left out (of `where`, when named). */
export function droppedPositionsNote(dropped: number, where = ''): string {
  const one = dropped === 1;
  return `${dropped} graph position${one ? ' was' : 's were'}${where === '' ? '' : ` in ${where}`} not two numbers within ±${MAX_LAYOUT_COORDINATE.toLocaleString('en-US')} and ${one ? 'was' : 'were'} left out.`;
}

/**
 * Reads hand-placed positions from untrusted data (a bundle, storage): keeps entries whose
 * position is two numbers within `MAX_LAYOUT_COORDINATE`, and says how many it dropped.
 */
export function readLayout(value: unknown): { layout: GraphLayout; dropped: number } {
  const layout: Record<string, { x: number; y: number }> = {};
  let dropped = 0;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { layout, dropped: value === undefined ? 0 : 1 };
  }
  for (const [id, position] of Object.entries(value as Record<string, unknown>)) {
    const { x, y } = (position ?? {}) as { x?: unknown; y?: unknown };
    if (
      Object.keys(layout).length < MAX_LAYOUT_ENTRIES &&
      typeof x === 'number' &&
      typeof y === 'number' &&
      Math.abs(x) <= MAX_LAYOUT_COORDINATE &&
      Math.abs(y) <= MAX_LAYOUT_COORDINATE
    ) {
      Object.defineProperty(layout, id, { value: { x, y }, enumerable: true, writable: true });
    } else {
      dropped++;
    }
  }
  return { layout, dropped };
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

/**
 * The project file a name means when it is written another way: `Agent.md`, `POLICIES.YAML`,
 * `policies.yml`. Undefined for any other name.
 */
export function projectFileNamed(name: string): ProjectFileName | undefined {
  const canonical = name.toLowerCase().replace(/\.yml$/, '.yaml');
  return isProjectFileName(canonical) ? canonical : undefined;
}

/**
 * A short hash of a project's files (32-bit FNV-1a over names and texts, in name order): a run
 * records it, so its report says which version of the text it judged.
 */
export function projectHash(files: Readonly<Record<string, string>>): string {
  let hash = 0x811c9dc5;
  for (const [name, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b)))
    hash = fnvCodePoints(fnvCodePoints(fnvCodePoints(fnvCodePoints(hash, name), '\n'), text), '\n');
  return hash.toString(16).padStart(8, '0');
}

/**
 * FNV-1a over a text's code points, read by index: a `for…of` over the string (one string per
 * character) took 230 ms of the page's thread on 8 MB, this loop a tenth of that.
 */
function fnvCodePoints(start: number, text: string): number {
  let hash = start;
  for (let i = 0; i < text.length; i++) {
    const point = text.codePointAt(i) ?? 0;
    // A surrogate pair is one code point: its second half is not hashed again.
    if (point > 0xffff) i++;
    hash ^= point;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
