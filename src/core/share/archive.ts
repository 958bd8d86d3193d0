import { gzipSync, strFromU8, strToU8, zipSync } from 'fflate';
import type { LoadNote } from '../bundle.ts';
import { projectFromFiles } from '../bundle.ts';
import type { Project, ProjectFileName } from '../project.ts';
import { PROJECT_FILES, droppedPositionsNote, isProjectFileName, readLayout } from '../project.ts';
import type { SimEvent } from '../sim/events.ts';
import { crc32, formatBytes, inflateBounded } from './inflate.ts';
import type { ZipEntry } from './zipReader.ts';
import { zipEntries, zipEntryBytes } from './zipReader.ts';

/*
 * Projects and runs as files: a project as a zip of its six files (and layout.json), a run's log
 * as gzipped JSON. Reading either trusts nothing: entries are counted and their declared sizes
 * summed before anything is inflated, inflating stops at the cap, names are only ever compared
 * (never used as paths or object keys), and every refusal is a sentence.
 */

/** How much a project zip or a gzipped log may unpack to, and how many entries a zip may list. */
export const ARCHIVE_LIMITS: {
  readonly maxEntries: number;
  readonly maxProjectBytes: number;
  readonly maxLogBytes: number;
} = {
  maxEntries: 1_000,
  maxProjectBytes: 32 * 1024 * 1024,
  maxLogBytes: 256 * 1024 * 1024,
};

/** The graph layout's file inside a project zip. */
export const LAYOUT_FILE = 'layout.json';

/**
 * A project as a zip: the six files at its root, plus `layout.json` when there is a layout.
 * Deterministic (fixed times, fixed order), so the same project always gives the same bytes.
 */
export function zipProject(project: Project): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const { name } of PROJECT_FILES) entries[name] = strToU8(project.files[name]);
  if (project.layout && Object.keys(project.layout).length > 0)
    entries[LAYOUT_FILE] = strToU8(`${JSON.stringify(project.layout, null, 2)}\n`);
  // Every entry's time, from local date parts because zip stores local time: built here, not once,
  // so the bytes are the same in whatever time zone the zip is made.
  return zipSync(entries, { level: 9, mtime: new Date(1980, 0, 1, 12, 0, 0) });
}

/** A project read from a zip, or why it cannot be. */
export type UnzippedProject =
  { ok: true; project: Project; notes: readonly LoadNote[] } | { ok: false; error: string };

/** Files a zip tool adds on its own, left out without a note. */
const TOOL_LITTER = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)/;

/**
 * Reads a project from a zip holding its files at the root or inside one folder (as zipping a
 * project's folder makes). Other files are left out with a note. Never throws.
 * @param name the project's name (say, the zip's file name); else the folder's, else "Untitled project".
 */
export function unzipProject(bytes: Uint8Array, name?: string): UnzippedProject {
  const { maxEntries, maxProjectBytes } = ARCHIVE_LIMITS;
  const listed = zipEntries(bytes, maxEntries);
  if (!Array.isArray(listed)) return { ok: false, error: listed.error };
  const placed = listed.flatMap((entry) => {
    if (entry.name.endsWith('/') || TOOL_LITTER.test(entry.name)) return [];
    const segments = entry.name.split('/');
    const file = segments.at(-1) ?? '';
    // Only "file" and "folder/file" can be the project; "../x", "/x" or "a//b" never are.
    const plain =
      segments.length <= 2 && segments.every((s) => s !== '' && s !== '.' && s !== '..');
    const wanted = plain && (isProjectFileName(file) || file === LAYOUT_FILE);
    return [{ entry, file, folder: segments.length === 2 ? (segments[0] ?? '') : '', wanted }];
  });
  const folders = new Set(
    placed.filter((p) => p.wanted && isProjectFileName(p.file)).map((p) => p.folder),
  );
  if (folders.size === 0)
    return {
      ok: false,
      error: `This zip holds none of the project files (${PROJECT_FILES.map((f) => f.name).join(', ')}), at its top or in one folder.`,
    };
  const root = folders.has('') ? '' : folders.size === 1 ? [...folders][0] : undefined;
  if (root === undefined)
    return {
      ok: false,
      error: `This zip holds more than one project (in ${[...folders].map((f) => `"${f}/"`).join(', ')}); zip one project at a time.`,
    };
  const chosen = new Map<string, ZipEntry>();
  const others: string[] = [];
  for (const p of placed) {
    if (p.wanted && p.folder === root && !chosen.has(p.file)) chosen.set(p.file, p.entry);
    else others.push(p.entry.name);
  }
  const declared = [...chosen.values()].reduce((sum, entry) => sum + entry.size, 0);
  if (declared > maxProjectBytes)
    return {
      ok: false,
      error: `This zip’s project files unpack to ${formatBytes(declared)}, more than PolicyLab’s limit of ${formatBytes(maxProjectBytes)}.`,
    };
  const found: [ProjectFileName, string][] = [];
  let layoutText: string | undefined;
  for (const [file, entry] of chosen) {
    const read = zipEntryBytes(bytes, entry);
    if (!(read instanceof Uint8Array)) return { ok: false, error: read.error };
    if (isProjectFileName(file)) found.push([file, strFromU8(read)]);
    else layoutText = strFromU8(read);
  }
  const loaded = projectFromFiles(
    name ?? (root === '' ? 'Untitled project' : root),
    Object.fromEntries(found),
  );
  const notes: LoadNote[] = [...loaded.notes];
  if (others.length > 0) {
    const shown = others.slice(0, 3).map((n) => JSON.stringify(n));
    notes.push({
      file: 'bundle',
      message: `${others.length === 1 ? 'One file' : `${others.length} files`} in the zip ${others.length === 1 ? 'is' : 'are'} not part of the project and ${others.length === 1 ? 'was' : 'were'} left out: ${shown.join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}.`,
    });
  }
  if (layoutText === undefined) return { ok: true, project: loaded.project, notes };
  let rawLayout: unknown;
  try {
    rawLayout = JSON.parse(layoutText);
  } catch {
    notes.push({
      file: 'bundle',
      message: `${LAYOUT_FILE} is not valid JSON; the graph is laid out afresh.`,
    });
    return { ok: true, project: loaded.project, notes };
  }
  const { layout, dropped } = readLayout(rawLayout);
  if (dropped > 0)
    notes.push({
      file: 'bundle',
      message: droppedPositionsNote(dropped),
    });
  return { ok: true, project: { ...loaded.project, layout }, notes };
}

/** A run's log as gzipped JSON (a list of events), the same bytes for the same log. */
export function gzipLog(events: readonly SimEvent[]): Uint8Array {
  // mtime 0: no time in the header, so the file depends only on the log.
  return gzipSync(strToU8(JSON.stringify(events)), { mtime: 0 });
}

/** A gzipped log, unpacked and parsed but not yet checked: the caller passes `raw` to `readLog`. */
export type GunzippedLog = { ok: true; raw: unknown } | { ok: false; error: string };

/**
 * Unpacks a gzipped log: a JSON list of events, or one event per line (as `events.jsonl` holds
 * them). Stops inflating past `max` bytes (`ARCHIVE_LIMITS.maxLogBytes` unless given) and checks
 * the CRC. Never throws.
 */
export function gunzipLog(
  bytes: Uint8Array,
  max: number = ARCHIVE_LIMITS.maxLogBytes,
): GunzippedLog {
  const body = gzipBody(bytes);
  if ('error' in body) return { ok: false, error: body.error };
  const inflated = inflateBounded(body.packed, max);
  if (!inflated.ok)
    return {
      ok: false,
      error: {
        'too-big': `This gzip file cannot be opened: it unpacks to more than ${formatBytes(max)}, PolicyLab’s limit for a run’s log.`,
        truncated: CUT_SHORT,
        corrupt: 'This gzip file is damaged: it does not unpack.',
      }[inflated.problem],
    };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const crc = view.getUint32(bytes.length - 8, true);
  const size = view.getUint32(bytes.length - 4, true);
  if (crc32(inflated.bytes) !== crc || inflated.bytes.length % 2 ** 32 !== size)
    return {
      ok: false,
      error: 'This gzip file is damaged: it does not hold what its checksum says.',
    };
  return parseLogText(strFromU8(inflated.bytes));
}

/** The deflate data of a single-member gzip file (RFC 1952), after its header and before its trailer. */
function gzipBody(bytes: Uint8Array): { packed: Uint8Array } | { error: string } {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return { error: 'This is not a gzip file.' };
  const cut = { error: CUT_SHORT };
  if (bytes.length < 18) return cut;
  if (bytes[2] !== 8)
    return { error: 'This gzip file is compressed in a way PolicyLab does not read.' };
  const flags = bytes[3] ?? 0;
  let at = 10;
  if (flags & 4) at += 2 + ((bytes[10] ?? 0) | ((bytes[11] ?? 0) << 8));
  for (const flag of [8, 16]) {
    // A file name, then a comment, each ending in a zero byte.
    if (flags & flag) {
      while (at < bytes.length && bytes[at] !== 0) at++;
      at++;
    }
  }
  if (flags & 2) at += 2;
  return { packed: bytes.subarray(at, bytes.length - 8) };
}

const CUT_SHORT = 'This gzip file is cut short.';

function parseLogText(text: string): GunzippedLog {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed === '') {
    try {
      return { ok: true, raw: JSON.parse(trimmed) };
    } catch (error) {
      return {
        ok: false,
        error: `The log in this gzip file is not valid JSON: ${messageOf(error)}`,
      };
    }
  }
  const events: unknown[] = [];
  for (const [i, line] of trimmed.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line));
    } catch (error) {
      return {
        ok: false,
        error: `The log in this gzip file is neither a JSON list nor one event per line: line ${i + 1} is not JSON (${messageOf(error)}).`,
      };
    }
  }
  return { ok: true, raw: events };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
