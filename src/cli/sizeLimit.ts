import { statSync } from 'node:fs';
import path from 'node:path';
import { fileTooLarge, projectFileNamed } from '../core/index.ts';

/**
 * Why a project folder is not read, when one of its files is past the size limit: said before
 * reading it, so a huge file costs nothing. Undefined when every file may be read.
 */
export function oversizeFile(folder: string, present: ReadonlySet<string>): string | undefined {
  for (const name of present) {
    if (projectFileNamed(name) === undefined) continue;
    let bytes: number;
    try {
      bytes = statSync(path.join(folder, name)).size;
    } catch {
      continue;
    }
    const problem = fileTooLarge(name, bytes);
    if (problem !== undefined) return `${problem} Nothing was checked.`;
  }
  return undefined;
}
