import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { oversizeFile } from './sizeLimit.ts';
import type { LoadNote, Project } from '../core/index.ts';
import {
  LAYOUT_FILE,
  PROJECT_FILES,
  droppedPositionsNote,
  parseBundle,
  projectFileNamed,
  projectFromFiles,
  readLayout,
} from '../core/index.ts';

/**
 * Reads a project from a folder of the six files (and the graph's layout.json, when there is one)
 * or from a `*.policylab.json` bundle.
 */
export function loadProject(
  target: string,
): { project: Project; notes: LoadNote[] } | { error: string } {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return { error: `${target}: no such file or folder.` };
  }
  if (stat.isDirectory()) {
    const present = new Set(readdirSync(target));
    const found: Record<string, string> = {};
    const tooLarge = oversizeFile(target, present);
    if (tooLarge !== undefined) return { error: tooLarge };
    // The project files, and files named like them another way (Agent.md, policies.yml).
    for (const name of [...present].filter((n) => projectFileNamed(n) !== undefined).sort()) {
      const read = readText(path.join(target, name));
      if ('error' in read) return read;
      found[name] = read.text;
    }
    if (Object.keys(found).length === 0) {
      return {
        error: `${target} holds none of the project files (${PROJECT_FILES.map((f) => f.name).join(', ')}).`,
      };
    }
    const loaded = projectFromFiles(path.basename(path.resolve(target)), found);
    return present.has(LAYOUT_FILE) ? withLayout(loaded, path.join(target, LAYOUT_FILE)) : loaded;
  }
  const read = readText(target);
  return 'error' in read ? read : parseBundle(read.text);
}

/** A file's text, or why it cannot be read in words (a folder, no permission …), never a stack trace. */
function readText(file: string): { text: string } | { error: string } {
  try {
    if (statSync(file).isDirectory()) return { error: `${file} is a folder, not a file.` };
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      error: `${file} could not be read${typeof code === 'string' ? ` (${code})` : ''}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The project with the hand-placed positions of a layout.json, noting what could not be read. */
function withLayout(
  loaded: { project: Project; notes: LoadNote[] },
  file: string,
): { project: Project; notes: LoadNote[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    const message = `${LAYOUT_FILE} is not valid JSON; the graph is laid out afresh.`;
    return { ...loaded, notes: [...loaded.notes, { file: 'bundle', message }] };
  }
  const { layout, dropped } = readLayout(raw);
  const notes = [...loaded.notes];
  if (dropped > 0)
    notes.push({
      file: 'bundle',
      message: droppedPositionsNote(dropped, LAYOUT_FILE),
    });
  return { project: { ...loaded.project, layout }, notes };
}
