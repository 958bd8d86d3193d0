import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LoadNote, Project } from '../core/index.ts';
import { PROJECT_FILES, parseBundle, projectFromFiles } from '../core/index.ts';

/** Reads a project from a folder of the six files or from a `*.policylab.json` bundle. */
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
    for (const { name } of PROJECT_FILES) {
      if (present.has(name)) found[name] = readFileSync(path.join(target, name), 'utf8');
    }
    if (Object.keys(found).length === 0) {
      return {
        error: `${target} holds none of the project files (${PROJECT_FILES.map((f) => f.name).join(', ')}).`,
      };
    }
    return projectFromFiles(path.basename(path.resolve(target)), found);
  }
  return parseBundle(readFileSync(target, 'utf8'));
}
