import { strFromU8 } from 'fflate';
import type { Diagnostic } from '../diagnostics.ts';
import type { Project } from '../project.ts';
import { isProjectFileName } from '../project.ts';
import { openZipFolder } from '../share/zipFolder.ts';
import type { GatheredDomain } from './gather.ts';
import { domainName, findDomain, gatherDomain } from './gather.ts';
import type { DomainImport } from './importDomain.ts';
import { domainSummary, importDomain, importReportText } from './importDomain.ts';
import type { CarryNote } from './toProject/carry.ts';

/*
 * A tau2-bench domain or an IntellAgent input brought into the page: a dropped folder, picked
 * files, or a zip of either. Recognised here, gathered and imported with the same core functions
 * the CLI uses, and described for the import report. The page runs it in a worker.
 */

/** A file brought in: its path as the drop gives it ("folder/sub/file"), and its bytes. */
export interface DroppedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** What a drop holds: no domain, a domain's files, or why its files cannot be read. */
export type DomainDrop =
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'domain'; readonly found: GatheredDomain };

/** A read that failed inside `gatherDomain`, carried out as the refusal's sentence. */
class UnreadableFile extends Error {}

/** A drop's files as one folder: their paths, the zip's name when it was one, and a reader. */
interface Listing {
  readonly paths: readonly string[];
  readonly zipName?: string;
  readonly read: (path: string) => Uint8Array;
}

/** Lists a drop: one zip's entries (none unpacked yet) or the files' own paths. */
function listingOf(files: readonly DroppedFile[]): Listing | undefined {
  const [first] = files;
  if (files.length === 1 && first && first.name.toLowerCase().endsWith('.zip')) {
    const zip = openZipFolder(first.bytes);
    if ('error' in zip) return undefined;
    return {
      paths: zip.paths,
      zipName: baseName(first.name).replace(/\.zip$/i, ''),
      read: (path) => {
        const bytes = zip.read(path);
        if (!(bytes instanceof Uint8Array)) throw new UnreadableFile(bytes.error);
        return bytes;
      },
    };
  }
  const byPath = new Map(files.map((f) => [f.name.replace(/\\/g, '/'), f.bytes]));
  return { paths: [...byPath.keys()], read: (path) => byPath.get(path) ?? new Uint8Array() };
}

/** Where a domain sits among a listing's paths; never one in a PolicyLab project's folder. */
const whereIn = (paths: readonly string[]) =>
  paths.some((p) => isProjectFileName(baseName(p))) ? undefined : findDomain(paths);

/**
 * Whether dropped files hold a domain (or a reason to refuse one), judged from their paths only
 * (a zip's table of contents, never its contents): cheap enough for the page's own thread.
 */
export function holdsDomain(files: readonly DroppedFile[]): boolean {
  const listing = listingOf(files);
  return listing !== undefined && whereIn(listing.paths) !== undefined;
}

/**
 * Finds a domain among dropped or picked files (a folder's files, or one zip), and reads its
 * files. Files of a PolicyLab project are never taken for a domain.
 */
export function domainOfDrop(files: readonly DroppedFile[]): DomainDrop {
  const listing = listingOf(files);
  return listing === undefined ? { kind: 'none' } : gatherFrom(listing);
}

function gatherFrom({ paths, zipName, read }: Listing): DomainDrop {
  const where = whereIn(paths);
  if (where === undefined) return { kind: 'none' };
  if ('error' in where) return { kind: 'error', message: where.error };
  const { kind, root } = where;
  const prefix = root === '' ? '' : `${root}/`;
  const inside = paths.flatMap((p) => (p.startsWith(prefix) ? [p.slice(prefix.length)] : []));
  const segments = root === '' ? [zipName ?? 'Imported domain'] : root.split('/');
  try {
    const found = gatherDomain(kind, {
      label: root === '' ? (zipName ?? 'These files') : `“${root}”`,
      name: domainName(kind, segments),
      paths: inside,
      read: (path) => strFromU8(read(prefix + path)),
    });
    if ('error' in found) return { kind: 'error', message: found.error };
    return { kind: 'domain', found };
  } catch (error) {
    if (error instanceof UnreadableFile) return { kind: 'error', message: error.message };
    throw error;
  }
}

/** The import report the page shows: what came in, what did not, and what `check` says. */
export interface ImportReport {
  readonly projectName: string;
  /** "tau2-bench" or "IntellAgent". */
  readonly source: string;
  readonly summary: string;
  readonly notRead: ReadonlyArray<{ readonly item: string; readonly message: string }>;
  readonly notCarried: readonly CarryNote[];
  readonly counts: DomainImport['counts'];
  /** The check's errors (the first 50). */
  readonly errors: readonly Diagnostic[];
  /** The whole report as plain text, to copy. */
  readonly text: string;
}

/** Describes an import for the page, in the words the CLI prints. */
export function importReportOf(found: GatheredDomain, imported: DomainImport): ImportReport {
  const { domain, notCarried, counts, diagnostics } = imported;
  const at = (n: { place?: { file: string; line?: number } }) =>
    n.place === undefined
      ? ''
      : ` (${found.paths.get(n.place.file) ?? n.place.file}${n.place.line !== undefined ? `:${n.place.line}` : ''})`;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const text = [
    importReportText(imported, `as the new project “${imported.project.name}”`, found.paths),
    ...errors.map((d) => `  ${d.file}:${d.line}:${d.column}  ${d.message}  [${d.code}]\n`),
  ].join('');
  return {
    projectName: imported.project.name,
    source: domain.source === 'tau2' ? 'tau2-bench' : 'IntellAgent',
    summary: domainSummary(domain),
    notRead: domain.notes.map((n) => ({ item: n.item, message: `${n.message}${at(n)}` })),
    notCarried,
    counts,
    errors: errors.slice(0, 50),
    text,
  };
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** A drop imported: no domain in it, why its domain cannot be imported, or the new project. */
export type DropImport =
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'domain'; readonly project: Project; readonly report: ImportReport };

/**
 * Finds a domain among dropped files and imports it as a project named after its folder, with
 * the report the page shows. The whole job of the page's import worker. Never throws.
 */
export function importDrop(files: readonly DroppedFile[]): DropImport {
  let drop: DomainDrop;
  try {
    drop = domainOfDrop(files);
    if (drop.kind !== 'domain') return drop;
    const imported = importDomain(drop.found, drop.found.name);
    return {
      kind: 'domain',
      project: imported.project,
      report: importReportOf(drop.found, imported),
    };
  } catch (error) {
    return {
      kind: 'error',
      message: `The domain could not be imported: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
