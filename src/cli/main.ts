import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../core/index.ts';
import {
  PROJECT_FILES,
  analyzeProject,
  countBySeverity,
  extractPolicies,
  parseProject,
  projectFromFiles,
} from '../core/index.ts';
import { loadProject } from './loadProject.ts';

/** Where the CLI writes; injected so tests can read what a person would see. */
export interface CliIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** Exit codes: 0 success, 1 the project has errors, 2 the command line was wrong. */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

/** The text of `policylab --help`. */
export function helpText(): string {
  const width = Math.max(...PROJECT_FILES.map((f) => f.name.length));
  const files = PROJECT_FILES.map((f) => `  ${f.name.padEnd(width)}  ${f.summary}`).join('\n');
  return `policylab: write, graph, simulate and replay the policies of a conversational agent.

Usage:
  policylab check <folder|bundle> [--json]   Report every problem in a project; exit 1 on errors.
  policylab extract <agent.md> [--tools <tools.yaml>]
                                             Propose atomic policies from a prompt, as YAML.
  policylab --help | --version

Options:
  -h, --help     Show this help.
  -v, --version  Print the version of PolicyLab.
  --json         (check) Print the diagnostics as JSON.
  --tools FILE   (extract) A tools.yaml whose tool names the policies may mention.

A project is a folder holding these files (or one *.policylab.json bundle of them):
${files}

The IDE itself runs in the browser: npm run dev, then open the address it prints.
`;
}

/**
 * Runs the command line and returns the process exit code.
 * @param argv the arguments after the program name.
 * @param version the version to report, read from package.json by the caller.
 */
export function runCli(argv: readonly string[], version: string, io: CliIO): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        json: { type: 'boolean' },
        tools: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.out(`${version}\n`);
    return EXIT.ok;
  }
  const [command, target, ...extra] = positionals;
  if (values.help || command === undefined) {
    io.out(helpText());
    return EXIT.ok;
  }
  if (command !== 'check' && command !== 'extract')
    return usage(io, `unknown command "${command}".`);
  if (target === undefined) return usage(io, `"${command}" needs a path.`);
  if (extra.length > 0) return usage(io, `unexpected argument "${extra.join(' ')}".`);
  return command === 'check'
    ? check(target, values.json === true, io)
    : extract(target, values.tools, io);
}

function usage(io: CliIO, message: string): number {
  io.err(`policylab: ${message}\n`);
  io.err('Run "policylab --help" to see what it accepts.\n');
  return EXIT.usage;
}

function check(target: string, json: boolean, io: CliIO): number {
  const loaded = loadProject(target);
  if ('error' in loaded) {
    io.err(`policylab: ${loaded.error}\n`);
    return EXIT.usage;
  }
  const { diagnostics } = analyzeProject(loaded.project);
  const counts = countBySeverity(diagnostics);
  if (json) {
    io.out(
      `${JSON.stringify({ project: loaded.project.name, notes: loaded.notes, counts, diagnostics }, null, 2)}\n`,
    );
  } else {
    for (const note of loaded.notes) io.err(`note: ${note.message}\n`);
    for (const d of diagnostics) io.out(`${formatDiagnostic(target, d)}\n`);
    io.out(`${summary(counts)}\n`);
  }
  return counts.error > 0 ? EXIT.problems : EXIT.ok;
}

function formatDiagnostic(target: string, d: Diagnostic): string {
  const where = target.endsWith('.json')
    ? `${target}#${d.file}`
    : `${target.replace(/\/$/, '')}/${d.file}`;
  return `${where}:${d.line}:${d.column}  ${d.severity.padEnd(7)}  ${d.message}  [${d.code}]`;
}

function summary(counts: Record<Diagnostic['severity'], number>): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (counts.error + counts.warning + counts.info === 0) return 'No problems found.';
  return `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info.`;
}

function extract(promptPath: string, toolsPath: string | undefined, io: CliIO): number {
  let prompt: string;
  let toolNames: string[] = [];
  try {
    prompt = readFileSync(promptPath, 'utf8');
    if (toolsPath !== undefined) {
      const { project } = projectFromFiles('tools', {
        'tools.yaml': readFileSync(toolsPath, 'utf8'),
      });
      toolNames = parseProject(project).model.tools.map((t) => t.name);
    }
  } catch (error) {
    io.err(`policylab: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
  const policies = extractPolicies(prompt, toolNames).map((c) => ({
    id: c.id,
    text: c.text,
    category: c.category,
    challenge: c.challenge,
    ...(c.tools.length > 0 ? { tools: [...c.tools] } : {}),
    source: c.source.endLine === c.source.line ? { line: c.source.line } : { ...c.source },
  }));
  io.out(stringify({ policies }, { lineWidth: 0 }));
  return EXIT.ok;
}
