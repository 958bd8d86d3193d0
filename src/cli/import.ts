import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DomainKind, GatheredDomain, ImportedDomain } from '../core/index.ts';
import {
  PROJECT_FILES,
  domainFolders,
  domainName,
  gatherDomain,
  importDomain,
  importReportText,
  importTooLarge,
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
      data/db.json or data/db.toml, src/tools.py, src/data_model.py), or a tau2-bench checkout with
      --domain NAME (src/tau2/domains/NAME and data/tau2/domains/NAME).
  policylab import intellagent <folder> --out <folder> [--force] [--json]
      <folder> is an IntellAgent input folder (wiki.md, tools/*.py, data/*.csv;
      validators/*.py are listed as not carried).

Python files are read as text and parsed; nothing from them is run. Large databases are sliced
to the rows the tasks touch plus a small sample. As on the page, a file over 32 MB is refused
unread, and a link (file or folder) that leads out of <folder> is refused, never followed. The command writes the six project files, then
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

  const read = domainFiles(kind, source, values.domain);
  if ('error' in read) return fail(io, read.error);
  const out = values.out;
  const imported = importDomain(read, path.basename(path.resolve(out)));
  const { domain, notCarried, diagnostics, counts } = imported;
  const files = imported.project.files;

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
  if (values.json === true) {
    io.out(
      `${JSON.stringify({ domain: summaryOf(domain), out, notRead: domain.notes, notCarried, check: { counts, errors: diagnostics.filter((d) => d.severity === 'error') } }, null, 2)}\n`,
    );
  } else {
    io.out(importReportText(imported, `into ${out}`, read.paths));
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

/**
 * Finds a domain's files on disk: lists the folders the core looks in (never deeper) and lets
 * `gatherDomain`, which the page shares, pick and name them. `paths` are where each was read.
 * As on the page, a file past `MAX_IMPORT_BYTES` is refused before it is read; a link (a folder
 * or a file) that leads out of the domain's folder is refused, never followed.
 */
export function domainFiles(
  kind: DomainKind,
  root: string,
  domain: string | undefined,
): GatheredDomain | { error: string } {
  const home = realpathSync(root);
  const outside = (rel: string, real: string) =>
    real !== home && !real.startsWith(home + path.sep)
      ? `${rel} is a link to ${real}, outside the domain's folder: links out of it are not followed.`
      : undefined;
  const listed: string[] = [];
  const sizes = new Map<string, number>();
  for (const dir of domainFolders(kind, domain)) {
    const real = realOf(path.join(root, dir));
    if (real === undefined || !statSync(real).isDirectory()) continue;
    const out = dir === '' ? undefined : outside(`${dir}/`, real);
    if (out !== undefined) return { error: out };
    for (const file of readdirSync(real).sort()) {
      const rel = dir === '' ? file : `${dir}/${file}`;
      const target = realOf(path.join(real, file));
      if (target === undefined) continue;
      const stat = statSync(target);
      if (!stat.isFile()) continue;
      const away = outside(rel, target);
      if (away !== undefined) return { error: away };
      listed.push(rel);
      sizes.set(rel, stat.size);
    }
  }
  let found: ReturnType<typeof gatherDomain>;
  try {
    found = gatherDomain(
      kind,
      {
        label: root,
        name: domainName(kind, path.resolve(root).split(path.sep)),
        paths: listed,
        read: (rel) => {
          const big = importTooLarge(rel, sizes.get(rel) ?? 0);
          if (big !== undefined) throw new TooLarge(big);
          return readFileSync(path.join(root, rel), 'utf8');
        },
      },
      domain,
    );
  } catch (error) {
    if (error instanceof TooLarge) return { error: error.message };
    throw error;
  }
  if ('error' in found) return found;
  const paths = new Map([...found.paths].map(([name, rel]) => [name, path.join(root, rel)]));
  return { ...found, paths };
}

/** A file the domain needs is past the size limit: the import stops, saying which. */
class TooLarge extends Error {}

/** Where a path leads once every link is followed; undefined for a link that leads nowhere. */
function realOf(at: string): string | undefined {
  try {
    return realpathSync(at);
  } catch {
    return undefined;
  }
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
