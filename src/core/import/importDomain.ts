import { analyzeProject } from '../analyze.ts';
import { projectFromFiles } from '../bundle.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { countBySeverity } from '../diagnostics.ts';
import type { Project } from '../project.ts';
import type { ImportNote, ImportedDomain } from './domain.ts';
import type { GatheredDomain } from './gather.ts';
import { readIntellagentDomain } from './intellagent.ts';
import { readTau2Domain } from './tau2.ts';
import type { CarryNote } from './toProject/carry.ts';
import { projectOfDomain } from './toProject/index.ts';

/** A domain imported as a project, what it could not carry, and what `check` says of it. */
export interface DomainImport {
  readonly domain: ImportedDomain;
  readonly project: Project;
  readonly notCarried: readonly CarryNote[];
  /** The imported project's diagnostics, errors first. */
  readonly diagnostics: readonly Diagnostic[];
  readonly counts: Readonly<Record<Diagnostic['severity'], number>>;
}

/**
 * Reads a gathered domain with its kind's reader, writes it as a project named `projectName`
 * and checks the result: the one path `policylab import` and the page's import both take.
 */
export function importDomain(found: GatheredDomain, projectName: string): DomainImport {
  const domain =
    found.kind === 'tau2'
      ? readTau2Domain(found.name, found.files)
      : readIntellagentDomain(found.name, found.files);
  const { files, notCarried } = projectOfDomain(domain);
  const { project } = projectFromFiles(projectName, files);
  const { diagnostics } = analyzeProject(project);
  return { domain, project, notCarried, diagnostics, counts: countBySeverity(diagnostics) };
}

/**
 * The import's report as plain text: what was read, every item not read and not carried (by file
 * and item), and the check's counts. `into` says where the project went ("into out/", "as a new
 * project"); `paths` turns a domain file's name into where it was read from.
 */
export function importReportText(
  result: Pick<DomainImport, 'domain' | 'notCarried' | 'counts'>,
  into: string,
  paths: ReadonlyMap<string, string>,
): string {
  const { domain, notCarried, counts } = result;
  const where = (n: ImportNote) => {
    const file = n.place ? (paths.get(n.place.file) ?? n.place.file) : undefined;
    return file === undefined
      ? ''
      : ` (${file}${n.place?.line !== undefined ? `:${n.place.line}` : ''})`;
  };
  // Tools left out whole are listed once, first; the rest by file after.
  const missing = notCarried.filter((n) => n.notImported !== undefined);
  const partly = notCarried.filter((n) => n.notImported === undefined);
  const lines = [
    `Imported ${domain.source === 'tau2' ? 'tau2-bench' : 'IntellAgent'} domain "${domain.name}" ${into}:`,
    `  ${domainSummary(domain)}`,
    '',
    ...(missing.length > 0
      ? [
          `Tools not imported (${missing.length}): a dialogue that calls one ends as an error, never as a success.`,
          ...missing.map((n) => `  - ${n.item.replace(/^tool /, '')}: ${n.notImported ?? ''}`),
          '',
        ]
      : []),
    `Not read (${domain.notes.length}):`,
    ...domain.notes.map((n) => `  - ${n.item}: ${n.message}${where(n)}`),
    '',
    `Not carried, or carried in part (${partly.length}):`,
  ];
  for (const file of new Set(partly.map((n) => n.file))) {
    lines.push(`  ${file}:`);
    for (const n of partly.filter((x) => x.file === file))
      lines.push(`    - ${n.item}: ${n.message}`);
  }
  lines.push(
    '',
    `policylab check: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} info.`,
  );
  return `${lines.join('\n')}\n`;
}

/** "3 tools, 2 tables (books 2 rows, loans 12 of 40 rows), 2 tasks." */
export function domainSummary(domain: ImportedDomain): string {
  const tables = domain.tables
    .map(
      (t) =>
        `${t.name} ${t.rows.length}${t.rows.length < t.sourceRows ? ` of ${t.sourceRows}` : ''} rows`,
    )
    .join(', ');
  const userTools = domain.userTools?.length ?? 0;
  const userTables = domain.userTables?.length ?? 0;
  // Dual control: the user's own tools and state, said apart from the agent's.
  const user =
    userTools + userTables > 0 ? ` The user's side: ${userTools} tools, ${userTables} tables.` : '';
  return `${domain.tools.length} tools, ${domain.tables.length} tables (${tables}), ${domain.tasks.length} tasks.${user}`;
}
