import type { CarryNote, Diagnostic, DomainImport, GatheredDomain } from '../core/index.ts';
import {
  domainName,
  domainSummary,
  findDomain,
  gatherDomain,
  importReportText,
  isProjectFileName,
} from '../core/index.ts';
import { openZipFolder } from '../core/share/zipFolder.ts';
import type { IncomingFile } from './slices/shareSlice.ts';

/*
 * A tau2-bench domain or an IntellAgent input brought into the page: a dropped folder, picked
 * files, or a zip of either. Recognised here, gathered with the same core function the CLI uses,
 * and described for the import report. Loaded only when a file comes in.
 */

/** What a drop holds: no domain, a domain's files, or why its files cannot be read. */
export type DomainDrop =
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'domain'; readonly found: GatheredDomain };

const decoder = new TextDecoder();

/** A read that failed inside `gatherDomain`, carried out as the refusal's sentence. */
class UnreadableFile extends Error {}

/**
 * Finds a domain among dropped or picked files (a folder's files, or one zip), and reads its
 * files. Files of a PolicyLab project are never taken for a domain.
 */
export function domainOfDrop(files: readonly IncomingFile[]): DomainDrop {
  const [first] = files;
  if (files.length === 1 && first && first.name.toLowerCase().endsWith('.zip')) {
    const zip = openZipFolder(first.bytes);
    if ('error' in zip) return { kind: 'none' };
    return gatherFrom(zip.paths, baseName(first.name).replace(/\.zip$/i, ''), (path) => {
      const bytes = zip.read(path);
      if (!(bytes instanceof Uint8Array)) throw new UnreadableFile(bytes.error);
      return bytes;
    });
  }
  const byPath = new Map(files.map((f) => [f.name.replace(/\\/g, '/'), f.bytes]));
  return gatherFrom([...byPath.keys()], undefined, (path) => byPath.get(path) ?? new Uint8Array());
}

function gatherFrom(
  paths: readonly string[],
  zipName: string | undefined,
  read: (path: string) => Uint8Array,
): DomainDrop {
  if (paths.some((p) => isProjectFileName(baseName(p)))) return { kind: 'none' };
  const where = findDomain(paths);
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
      read: (path) => decoder.decode(read(prefix + path)),
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
