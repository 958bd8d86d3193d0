import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { LoadNote, Project } from '../core/index.ts';
import {
  LAYOUT_FILE,
  PROJECT_FILES,
  decodeShareLink,
  isShareLink,
  parseBundle,
  shareUrl,
  unzipProject,
} from '../core/index.ts';
import { loadProject } from './loadProject.ts';
import type { CliIO } from './main.ts';

/** Where `policylab share` points its links unless `--base` says otherwise. */
export const DEFAULT_SHARE_BASE = 'https://policylab.app/';

/** Longer than this, many chat and mail apps cut a link short. */
const CHAT_LINK_CHARS = 2_000;

/**
 * `policylab share <project> [--base URL]`: prints a link that opens the project (its six files
 * and its layout.json) in a browser. The project travels in the link's fragment, so opening it
 * sends nothing to the server at `base`.
 * @returns the exit code: 0, or 2 when the project cannot be read or shared as a link.
 */
export function share(target: string, base: string | undefined, io: CliIO): number {
  const address = base ?? DEFAULT_SHARE_BASE;
  if (!/^https?:\/\/[^\s#]+$/.test(address) || !URL.canParse(address))
    return fail(
      io,
      `--base must be a web address such as ${DEFAULT_SHARE_BASE}, not "${address}".`,
    );
  const loaded = loadProject(target);
  if ('error' in loaded) return fail(io, loaded.error);
  for (const note of loaded.notes) io.err(`note: ${note.message}\n`);
  const link = shareUrl(address, loaded.project);
  // Read back as the page will: a project too big to open is not worth a link.
  const check = decodeShareLink(link);
  if (!check.ok)
    return fail(
      io,
      `${target} cannot be shared as a link: ${check.error} Send it as a zip or a bundle instead.`,
    );
  if (link.length > CHAT_LINK_CHARS)
    io.err(
      `note: the link is ${link.length.toLocaleString('en')} characters long; chat and mail apps may cut it. A browser's address bar takes it whole.\n`,
    );
  io.out(`${link}\n`);
  return 0;
}

/**
 * `policylab open <link|bundle|zip> --out <folder> [--force]`: writes a shared project's six
 * files (and layout.json when it has a layout) into a folder, which must be empty or new unless
 * `--force` is given.
 * @returns the exit code: 0, or 2 when the input cannot be read or the folder cannot be written.
 */
export function open(target: string, out: string, force: boolean, io: CliIO): number {
  const read = readShared(target);
  if ('error' in read) return fail(io, read.error);
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) return fail(io, `${out} is a file, not a folder.`);
    if (!force && readdirSync(out).length > 0)
      return fail(
        io,
        `${out} is not empty. Choose a new folder, or add --force to write the project's files into it (files of the same names are replaced).`,
      );
  }
  const { project } = read;
  const written: string[] = [];
  try {
    mkdirSync(out, { recursive: true });
    for (const { name } of PROJECT_FILES) {
      writeFileSync(path.join(out, name), project.files[name]);
      written.push(name);
    }
    const layoutPath = path.join(out, LAYOUT_FILE);
    if (project.layout && Object.keys(project.layout).length > 0) {
      writeFileSync(layoutPath, `${JSON.stringify(project.layout, null, 2)}\n`);
      written.push(LAYOUT_FILE);
    } else if (existsSync(layoutPath)) {
      // Left behind, an older layout.json would be read as this project's.
      rmSync(layoutPath);
    }
  } catch (error) {
    return fail(
      io,
      `cannot write to ${out}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  for (const note of read.notes) io.err(`note: ${note.message}\n`);
  io.out(`Wrote "${project.name}" to ${out}: ${written.join(', ')}.\n`);
  return 0;
}

/** A project from a share link, a zip or a bundle, told apart by what they hold. */
function readShared(
  target: string,
): { project: Project; notes: readonly LoadNote[] } | { error: string } {
  if (isShareLink(target) || /^https?:\/\//i.test(target) || target.startsWith('#')) {
    const link = decodeShareLink(target);
    return link.ok ? link : { error: link.error };
  }
  let bytes: Uint8Array;
  try {
    if (statSync(target).isDirectory())
      return {
        error: `${target} is a folder; open reads a share link, a *.policylab.json bundle or a zip.`,
      };
    bytes = readFileSync(target);
  } catch {
    return { error: `${target}: no such file or folder.` };
  }
  // "PK\x03\x04" (or "PK\x05\x06", an empty zip) begins every zip, whatever its name.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const opened = unzipProject(bytes, path.basename(target).replace(/\.zip$/i, ''));
    return opened.ok ? opened : { error: `${target}: ${opened.error}` };
  }
  const bundle = parseBundle(new TextDecoder().decode(bytes));
  return 'error' in bundle ? { error: `${target}: ${bundle.error}` } : bundle;
}

function fail(io: CliIO, message: string): number {
  io.err(`policylab: ${message}\n`);
  return 2;
}
