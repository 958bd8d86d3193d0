import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CarryNote, ImportNote, ImportedDomain } from '../core/index.ts';
import {
  INTELLAGENT_WIKI,
  PROJECT_FILES,
  TAU2_FILES,
  analyzeProject,
  countBySeverity,
  projectFromFiles,
  projectOfDomain,
  readIntellagentDomain,
  readTau2Domain,
} from '../core/index.ts';
import type { CliIO } from './main.ts';

/** The same codes as main.ts's EXIT: 0 written, 1 written but `check` finds errors, 2 refused. */
const CODE = { ok: 0, problems: 1, usage: 2 } as const;

/** The text of `policylab import --help`. */
export function importHelpText(): string {
  return `policylab import: make a PolicyLab project from a tau2-bench or IntellAgent domain.

Usage:
  policylab import tau2 <folder> [--domain NAME] --out <folder> [--force] [--json]
      <folder> is a domain laid out as tau2-bench's are (data/policy.md, data/tasks.json,
      data/db.json, src/tools.py, src/data_model.py), or a tau2-bench checkout with
      --domain NAME (src/tau2/domains/NAME and data/tau2/domains/NAME).
  policylab import intellagent <folder> --out <folder> [--force] [--json]
      <folder> is an IntellAgent input folder (wiki.md, tools/*.py, data/*.csv).

Python files are read as text and parsed; nothing from them is run. Large databases are sliced
to the rows the tasks touch plus a small sample. The command writes the six project files, then
prints every item it could not carry (by file and item) and what \`policylab check\` says of the
result. --json prints that report as JSON.

Exit codes: 0 written and checks clean of errors, 1 written but check finds errors,
2 the command line or the domain folder was wrong.
`;
}

/** Runs `policylab import ...` (the arguments after "import") and returns the exit code. */
export function runImport(argv: readonly string[], io: CliIO): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        domain: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    io.out(importHelpText());
    return CODE.ok;
  }
  const [kind, source, ...extra] = positionals;
  if (kind !== 'tau2' && kind !== 'intellagent')
    return usage(io, `unknown source "${kind ?? ''}": choose tau2 or intellagent.`);
  if (source === undefined) return usage(io, `"import ${kind}" needs the domain's folder.`);
  if (extra.length > 0) return usage(io, `unexpected argument "${extra.join(' ')}".`);
  if (values.out === undefined) return usage(io, `"import ${kind}" needs --out <folder>.`);
  if (kind === 'intellagent' && values.domain !== undefined)
    return usage(io, '--domain applies to "import tau2" only.');
  if (!existsSync(source) || !statSync(source).isDirectory())
    return fail(io, `${source} is not a folder.`);

  const read = kind === 'tau2' ? tau2Files(source, values.domain) : intellagentFiles(source);
  if ('error' in read) return fail(io, read.error);
  const domain =
    kind === 'tau2'
      ? readTau2Domain(read.name, read.files)
      : readIntellagentDomain(read.name, read.files);
  const { files, notCarried } = projectOfDomain(domain);

  const out = values.out;
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) return fail(io, `${out} is a file, not a folder.`);
    if (values.force !== true && readdirSync(out).length > 0)
      return fail(
        io,
        `${out} is not empty. Choose a new folder, or add --force to replace the project files in it.`,
      );
  }
  try {
    mkdirSync(out, { recursive: true });
    for (const { name } of PROJECT_FILES) writeFileSync(path.join(out, name), files[name]);
  } catch (error) {
    return fail(
      io,
      `cannot write to ${out}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { project } = projectFromFiles(path.basename(path.resolve(out)), files);
  const { diagnostics } = analyzeProject(project);
  const counts = countBySeverity(diagnostics);
  if (values.json === true) {
    io.out(
      `${JSON.stringify({ domain: summaryOf(domain), out, notRead: domain.notes, notCarried, check: { counts, errors: diagnostics.filter((d) => d.severity === 'error') } }, null, 2)}\n`,
    );
  } else {
    io.out(textReport(domain, out, read.paths, notCarried, counts));
    for (const d of diagnostics.filter((x) => x.severity === 'error'))
      io.out(`  ${out}/${d.file}:${d.line}:${d.column}  ${d.message}  [${d.code}]\n`);
  }
  return counts.error > 0 ? CODE.problems : CODE.ok;
}

function summaryOf(domain: ImportedDomain) {
  return {
    name: domain.name,
    source: domain.source,
    tools: domain.tools.length,
    tables: domain.tables.map((t) => ({
      name: t.name,
      rows: t.rows.length,
      sourceRows: t.sourceRows,
    })),
    tasks: domain.tasks.length,
  };
}

function textReport(
  domain: ImportedDomain,
  out: string,
  paths: ReadonlyMap<string, string>,
  notCarried: readonly CarryNote[],
  counts: Record<'error' | 'warning' | 'info', number>,
): string {
  const where = (n: ImportNote) => {
    const file = n.place ? (paths.get(n.place.file) ?? n.place.file) : undefined;
    return file === undefined
      ? ''
      : ` (${file}${n.place?.line !== undefined ? `:${n.place.line}` : ''})`;
  };
  const lines = [
    `Imported ${domain.source === 'tau2' ? 'tau2-bench' : 'IntellAgent'} domain "${domain.name}" into ${out}:`,
    `  ${domain.tools.length} tools, ${domain.tables.length} tables (${domain.tables.map((t) => `${t.name} ${t.rows.length}${t.rows.length < t.sourceRows ? ` of ${t.sourceRows}` : ''} rows`).join(', ')}), ${domain.tasks.length} tasks.`,
    '',
    `Not read (${domain.notes.length}):`,
    ...domain.notes.map((n) => `  - ${n.item}: ${n.message}${where(n)}`),
    '',
    `Not carried, or carried in part (${notCarried.length}):`,
  ];
  for (const file of new Set(notCarried.map((n) => n.file))) {
    lines.push(`  ${file}:`);
    for (const n of notCarried.filter((x) => x.file === file))
      lines.push(`    - ${n.item}: ${n.message}`);
  }
  lines.push(
    '',
    `policylab check: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} info.`,
  );
  return `${lines.join('\n')}\n`;
}

/** A domain's files as the readers take them, and where each came from. */
export interface Found {
  readonly name: string;
  readonly files: Map<string, string>;
  /** Where each file came from on disk, for messages. */
  readonly paths: Map<string, string>;
}

/** Finds a tau2 domain's files in a domain folder (data/, src/) or a checkout with --domain. */
export function tau2Files(root: string, domain: string | undefined): Found | { error: string } {
  const dataDirs =
    domain === undefined
      ? ['data', '.']
      : [path.join('data', 'tau2', 'domains', domain), path.join('data', 'domains', domain)];
  const srcDirs =
    domain === undefined
      ? ['src', '.']
      : [path.join('src', 'tau2', 'domains', domain), path.join('src', 'domains', domain)];
  const wanted: Array<[string, readonly string[]]> = [
    [TAU2_FILES.policy, dataDirs],
    [TAU2_FILES.tasks, dataDirs],
    [TAU2_FILES.dbJson, dataDirs],
    [TAU2_FILES.dbToml, dataDirs],
    [TAU2_FILES.tools, srcDirs],
    [TAU2_FILES.dataModel, srcDirs],
    [TAU2_FILES.userTools, srcDirs],
  ];
  const found = collect(root, wanted);
  if (found.files.size === 0)
    return {
      error:
        domain === undefined
          ? `${root} holds none of a tau2 domain's files (data/policy.md, data/tasks.json, data/db.json, src/tools.py, src/data_model.py). For a tau2-bench checkout, add --domain NAME.`
          : `${root} has no domain "${domain}" (looked in data/tau2/domains/${domain} and src/tau2/domains/${domain}).`,
    };
  return { name: domain ?? path.basename(path.resolve(root)), ...found };
}

/** An IntellAgent input folder's wiki.md, tools/*.py and data/*.csv. */
export function intellagentFiles(root: string): Found | { error: string } {
  const wanted: Array<[string, readonly string[]]> = [[INTELLAGENT_WIKI, ['.']]];
  for (const [folder, ext] of [
    ['tools', '.py'],
    ['data', '.csv'],
  ] as const) {
    const dir = path.join(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort())
      if (file.endsWith(ext)) wanted.push([`${folder}/${file}`, ['.']]);
  }
  const found = collect(root, wanted);
  if (found.files.size === 0)
    return {
      error: `${root} holds none of an IntellAgent input's files (wiki.md, tools/*.py, data/*.csv).`,
    };
  const base = path.basename(path.resolve(root));
  return {
    name: base === 'input' ? path.basename(path.dirname(path.resolve(root))) : base,
    ...found,
  };
}

const ALIASES: Readonly<Record<string, readonly string[]>> = {
  [TAU2_FILES.policy]: ['main_policy.md'],
};

function collect(
  root: string,
  wanted: ReadonlyArray<[string, readonly string[]]>,
): { files: Map<string, string>; paths: Map<string, string> } {
  const files = new Map<string, string>();
  const paths = new Map<string, string>();
  for (const [name, dirs] of wanted) {
    for (const dir of dirs) {
      // tau2's telecom names its policy main_policy.md.
      const file = [name, ...(ALIASES[name] ?? [])]
        .map((n) => path.join(root, dir, n))
        .find((f) => existsSync(f) && statSync(f).isFile());
      if (file !== undefined) {
        files.set(name, readFileSync(file, 'utf8'));
        paths.set(name, file);
        break;
      }
    }
  }
  return { files, paths };
}

function usage(io: CliIO, message: string): number {
  io.err(`policylab import: ${message}\n`);
  io.err('Run "policylab import --help" to see what it accepts.\n');
  return CODE.usage;
}

function fail(io: CliIO, message: string): number {
  io.err(`policylab import: ${message}\n`);
  return CODE.usage;
}
