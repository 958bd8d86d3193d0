import type { Project, ProjectFileName } from './project.ts';
import {
  PROJECT_FILES,
  droppedPositionsNote,
  isProjectFileName,
  normalizeProjectName,
  projectFileNamed,
  readLayout,
} from './project.ts';

/** The format tag of a bundle file (`*.policylab.json`). */
export const BUNDLE_FORMAT = 'policylab/1';

/** What reading a project from loose files or a bundle found missing or odd. */
export interface LoadNote {
  readonly file: ProjectFileName | 'bundle';
  readonly message: string;
}

/**
 * Makes a project from whatever files were found; a missing file is empty and noted, a file that
 * is not part of the format is ignored and noted.
 */
export function projectFromFiles(
  name: string,
  found: Readonly<Record<string, string>>,
): { project: Project; notes: LoadNote[] } {
  const notes: LoadNote[] = [];
  // A file named another way (Agent.md, policies.yml) is read as the file it means, and said so,
  // unless the project file itself is there too.
  const texts = new Map<ProjectFileName, string>();
  for (const [file, text] of Object.entries(found))
    if (isProjectFileName(file)) texts.set(file, text);
  for (const [file, text] of Object.entries(found)) {
    if (isProjectFileName(file)) continue;
    const meant = projectFileNamed(file);
    if (meant === undefined) {
      notes.push({ file: 'bundle', message: `"${file}" is not a project file and was left out.` });
    } else if (texts.has(meant)) {
      notes.push({ file: meant, message: `"${file}" was left out: ${meant} is here too.` });
    } else {
      texts.set(meant, text);
      notes.push({ file: meant, message: `"${file}" was read as ${meant}.` });
    }
  }
  const files = {} as Record<ProjectFileName, string>;
  for (const { name: file } of PROJECT_FILES) {
    const text = texts.get(file);
    if (text === undefined)
      notes.push({ file, message: `${file} is missing; it is treated as empty.` });
    files[file] = text ?? '';
  }
  return { project: { name: normalizeProjectName(name) ?? 'Untitled project', files }, notes };
}

/** Reads a bundle's text. Never throws: unreadable input comes back as an error message. */
export function parseBundle(
  text: string,
): { project: Project; notes: LoadNote[] } | { error: string } {
  // A byte-order mark is no part of the JSON; editors on Windows write one.
  const json = text.replace(/^\uFEFF/, '');
  // A mistyped address served by a web server gives its page (or the app's own), not a bundle.
  if (/^\s*</.test(json)) {
    return {
      error:
        'No bundle here: the address answered with a web page, not a PolicyLab bundle (is the path right?).',
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return {
      error: `This bundle is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'This bundle is not a PolicyLab project: expected a JSON object.' };
  }
  const bundle = value as Record<string, unknown>;
  if (bundle.format !== BUNDLE_FORMAT) {
    return {
      error: `This bundle is not a PolicyLab project: "format" must be "${BUNDLE_FORMAT}".`,
    };
  }
  const files = bundle.files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    return { error: 'This bundle has no "files" object.' };
  }
  const found: Record<string, string> = {};
  for (const [file, content] of Object.entries(files as Record<string, unknown>)) {
    if (typeof content !== 'string')
      return { error: `The file "${file}" in this bundle is not text.` };
    found[file] = content;
  }
  const loaded = projectFromFiles(
    typeof bundle.name === 'string' ? bundle.name : 'Untitled project',
    found,
  );
  if (bundle.layout === undefined) return loaded;
  const { layout, dropped } = readLayout(bundle.layout);
  const notes = [...loaded.notes];
  if (dropped > 0) {
    notes.push({
      file: 'bundle',
      message: droppedPositionsNote(dropped),
    });
  }
  return { project: { ...loaded.project, layout }, notes };
}

/** Writes a project as bundle text. */
export function toBundle(project: Project): string {
  const { name, files, layout } = project;
  const placed = layout && Object.keys(layout).length > 0 ? { layout } : {};
  return `${JSON.stringify({ format: BUNDLE_FORMAT, name, files, ...placed }, null, 2)}\n`;
}
