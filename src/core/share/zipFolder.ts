import { ARCHIVE_LIMITS } from './archive.ts';
import { formatBytes } from './inflate.ts';
import type { ZipEntry } from './zipReader.ts';
import { zipEntries, zipEntryBytes } from './zipReader.ts';

/** A zip read as a folder: its plain files' paths, unpacked one at a time when asked. */
export interface ZipFolder {
  /** Every file's path ('/'-separated), folders, tool litter and unsafe names left out. */
  readonly paths: readonly string[];
  /**
   * One file's bytes, or why not. Unpacking stops once the files read so far pass
   * `ARCHIVE_LIMITS.maxProjectBytes` together, so a zip bomb costs nothing.
   */
  read(path: string): Uint8Array | { error: string };
}

/** Files a zip tool adds on its own. */
const TOOL_LITTER = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)/;

/**
 * Opens a zip as a folder of files without unpacking any (for a domain zipped whole: `retail.zip`
 * holding `retail/data/…`). Names like "../x", "/x" or "a//b" are never listed. Never throws.
 */
export function openZipFolder(bytes: Uint8Array): ZipFolder | { error: string } {
  const listed = zipEntries(bytes, ARCHIVE_LIMITS.maxEntries);
  if (!Array.isArray(listed)) return { error: listed.error };
  const byPath = new Map<string, ZipEntry>();
  for (const entry of listed) {
    if (entry.name.endsWith('/') || TOOL_LITTER.test(entry.name)) continue;
    if (entry.name.split('/').some((s) => s === '' || s === '.' || s === '..')) continue;
    if (!byPath.has(entry.name)) byPath.set(entry.name, entry);
  }
  let unpacked = 0;
  return {
    paths: [...byPath.keys()],
    read: (path) => {
      const entry = byPath.get(path);
      if (entry === undefined) return { error: `${JSON.stringify(path)} is not in this zip.` };
      unpacked += entry.size;
      if (unpacked > ARCHIVE_LIMITS.maxProjectBytes)
        return {
          error: `This zip’s files unpack to more than PolicyLab’s limit of ${formatBytes(ARCHIVE_LIMITS.maxProjectBytes)}.`,
        };
      return zipEntryBytes(bytes, entry);
    },
  };
}
