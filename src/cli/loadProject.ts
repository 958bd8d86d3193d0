import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { oversizeFile } from './sizeLimit.ts';
import type { LoadNote, Project } from '../core/index.ts';
import {
  LAYOUT_FILE,
  PROJECT_FILES,
  parseBundle,
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
    for (const { name } of PROJECT_FILES) {
      if (present.has(name)) found[name] = readFileSync(path.join(target, name), 'utf8');
    }
    if (Object.keys(found).length === 0) {
      return {
        error: `${target} holds none of the project files (${PROJECT_FILES.map((f) => f.name).join(', ')}).`,
      };
    }
    const loaded = projectFromFiles(path.basename(path.resolve(target)), found);
    return present.has(LAYOUT_FILE) ? withLayout(loaded, path.join(target, LAYOUT_FILE)) : loaded;
  }
  return parseBundle(readFileSync(target, 'utf8'));
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
      message: `${dropped} graph position${dropped === 1 ? ' was' : 's were'} in ${LAYOUT_FILE} not two numbers and ${dropped === 1 ? 'was' : 'were'} left out.`,
    });
  return { project: { ...loaded.project, layout }, notes };
}
