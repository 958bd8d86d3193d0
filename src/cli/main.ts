import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { readFileSync } from 'node:fs';
import { safeIO } from './terminal.ts';
import type { Diagnostic, PolicyGraph, ProjectModel } from '../core/index.ts';
import {
  DEFAULT_LEVELS,
  formatLevelBand,
  judgeOnlyPolicies,
  parseLevelBand,
  PROJECT_FILES,
  analyzeProject,
  buildGraph,
  countBySeverity,
  extractPolicies,
  policyEntry,
  parseProject,
  policyCoverage,
  projectFromFiles,
  sampleWithReport,
} from '../core/index.ts';
import { loadProject } from './loadProject.ts';
import { runImport } from './import.ts';
import { runModels } from './models.ts';
import { compare, recheck, report } from './reports.ts';
import { runRun } from './run.ts';
import { DEFAULT_SHARE_BASE, open, share } from './share.ts';

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
                                             Counts the policies only a judge model can
                                             report on (no guard rule, check or expectation).
  policylab extract <agent.md> [--tools <tools.yaml>]
                                             Propose atomic policies from a prompt, as YAML.
  policylab graph <folder|bundle> [--json|--dot]
                                             Print the policy graph: policies, written
                                             relations and heuristic links.
  policylab sample <folder|bundle> [--seed N] [--count K] [--levels MIN-MAX]
                   [--prefer-uncovered] [--json]
                                             Sample policy combinations by weighted random
                                             walks over the graph, spread evenly over levels.
  policylab models test --base-url URL --model NAME [--provider openai|anthropic]
                        [--api-key-env VAR] [--json]
                                             Check a model endpoint with one tool-call round
                                             trip (see policylab models --help).
  policylab run <folder|bundle> --config run.yaml
                                             Run an evaluation against remote endpoints;
                                             writes events.jsonl, summary.json, junit.xml
                                             (see policylab run --help).
  policylab share <folder|bundle> [--base URL]
                                             Print a link that opens the project (and its
                                             layout.json) in the browser.
  policylab open <link|bundle|zip> --out FOLDER [--force]
                                             Write a shared project's files into a folder
                                             (quote a link: the shell reads its # and &).
  policylab report <run> [--project <folder|bundle>] [--md|--csv|--json]
                                             Print a run's report from its log (Markdown by
                                             default).
  policylab compare <before> <after> [--project <folder|bundle>] [--max-drop 0.05] [--diff|--json]
                                             Compare two runs per policy and category; exit 1
                                             when the pass rate or a policy's dropped by more
                                             than --max-drop and beyond noise.
  policylab recheck <folder|bundle> <run> [--out FILE]
                                             Judge a saved run again against the project's
                                             checks and expectations as they are now (no model
                                             is called); writes the re-judged log.
  policylab import tau2 <folder> [--domain NAME] --out <folder>
  policylab import intellagent <folder> --out <folder>
                                             Make a project from a tau2-bench or IntellAgent
                                             domain; prints what it could not carry (see
                                             policylab import --help).
  policylab --help | --version

Options:
  -h, --help          Show this help.
  -v, --version       Print the version of PolicyLab.
  --json              (check, graph, sample) Print JSON.
  --tools FILE        (extract) A tools.yaml: policies are linked to tools by name and description.
  --dot               (graph) Print Graphviz DOT; heuristic edges are dashed.
  --seed N            (sample) Seed of the walks (default 1): the same seed, the same samples.
  --count K           (sample) How many combinations to draw (default 10).
  --levels MIN-MAX    (sample) The band of levels, a level being the summed challenge of a
                      combination (default 4-8); one number asks for a single level.
  --prefer-uncovered  (sample) Favour policies and pairs that earlier samples left out.
  --base URL          (share) The PolicyLab the link opens (default ${DEFAULT_SHARE_BASE}).
                      The project rides in the link's #fragment, which browsers never send
                      to a server.
  --out FOLDER        (open) Where to write the files; it must be new or empty.
  --force             (open) Write into a folder that is not empty, replacing the files.
  --project P         (report, compare) The project, for the policies' categories.
  --md, --csv         (report) Print Markdown (the default) or the rates as CSV.
  --max-drop X        (compare) The drop, as a share (0.05 = five points), that fails the
                      comparison when it is also beyond noise (default 0.05).
  --diff              (compare) Add the line diff of the project files the two runs judged.
  --out FILE          (recheck) Where to write the re-judged log (default: beside the run's,
                      named *.rechecked.jsonl).

A run is one events.jsonl (or .jsonl.gz), or several logs of one run (the shards of
"policylab run --shard K/N"): a folder of them, or paths joined with commas.

A project is a folder holding these files (or one *.policylab.json bundle of them):
${files}

The IDE itself runs in the browser: npm run dev, then open the address it prints.
`;
}

/**
 * Runs the command line and returns the process exit code (a promise for commands that go
 * over the network).
 * @param argv the arguments after the program name.
 * @param version the version to report, read from package.json by the caller.
 */
export function runCli(
  argv: readonly string[],
  version: string,
  rawIO: CliIO,
): number | Promise<number> {
  // Ids, texts and a model's words reach the terminal: their control codes are shown, not obeyed.
  const io = safeIO(rawIO);
  if (argv[0] === 'models') return runModels(argv.slice(1), io);
  if (argv[0] === 'run') return runRun(argv.slice(1), io);
  if (argv[0] === 'import') return runImport(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        json: { type: 'boolean' },
        tools: { type: 'string' },
        dot: { type: 'boolean' },
        seed: { type: 'string' },
        count: { type: 'string' },
        levels: { type: 'string' },
        'prefer-uncovered': { type: 'boolean' },
        base: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean' },
        project: { type: 'string' },
        md: { type: 'boolean' },
        csv: { type: 'boolean' },
        'max-drop': { type: 'string' },
        diff: { type: 'boolean' },
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
  if (!isCommand(command)) return usage(io, `unknown command "${command}".`);
  if (target === undefined)
    return usage(io, `"${command}" needs ${command === 'open' ? 'a link or a path' : 'a path'}.`);
  const second = TWO_RUNS.has(command) ? extra.shift() : undefined;
  if (TWO_RUNS.has(command) && second === undefined)
    return usage(
      io,
      command === 'compare'
        ? '"compare" needs two runs: the one before and the one after.'
        : '"recheck" needs a project and a run.',
    );
  if (extra.length > 0) return usage(io, `unexpected argument "${extra.join(' ')}".`);
  const misplaced = Object.keys(values).find(
    (option) => !(OPTIONS_OF[command] as readonly string[]).includes(option),
  );
  if (misplaced !== undefined) return usage(io, `--${misplaced} does not apply to "${command}".`);
  switch (command) {
    case 'check':
      return check(target, values.json === true, io);
    case 'extract':
      return extract(target, values.tools, io);
    case 'graph':
      if (values.json && values.dot) return usage(io, 'choose one of --json and --dot.');
      return graph(target, values.json ? 'json' : values.dot ? 'dot' : 'text', io);
    case 'sample':
      return sample(target, values, io);
    case 'share':
      return share(target, values.base, io);
    case 'open':
      if (values.out === undefined) return usage(io, '"open" needs --out <folder>.');
      return open(target, values.out, values.force === true, io);
    case 'report': {
      if ([values.md, values.csv, values.json].filter(Boolean).length > 1)
        return usage(io, 'choose one of --md, --csv and --json.');
      const format = values.csv ? 'csv' : values.json ? 'json' : 'md';
      return report(target, { project: values.project, format }, io);
    }
    case 'compare':
      return compare(
        target,
        second ?? '',
        {
          project: values.project,
          maxDrop: values['max-drop'],
          json: values.json === true,
          diff: values.diff === true,
        },
        io,
      );
    case 'recheck':
      return recheck(target, second ?? '', { out: values.out }, io);
  }
}

/** The options each command accepts. */
const OPTIONS_OF = {
  check: ['json'],
  extract: ['tools'],
  graph: ['json', 'dot'],
  sample: ['json', 'seed', 'count', 'levels', 'prefer-uncovered'],
  share: ['base'],
  open: ['out', 'force'],
  report: ['project', 'md', 'csv', 'json'],
  compare: ['project', 'max-drop', 'json', 'diff'],
  recheck: ['out'],
} as const;

/** Commands that take two positional arguments. */
const TWO_RUNS: ReadonlySet<string> = new Set(['compare', 'recheck']);

const isCommand = (name: string): name is keyof typeof OPTIONS_OF =>
  Object.hasOwn(OPTIONS_OF, name);

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
  const { diagnostics, model } = analyzeProject(loaded.project);
  const counts = countBySeverity(diagnostics);
  const coverage = policyCoverage(model);
  const judgeOnly = judgeOnlyPolicies(coverage);
  if (json) {
    const byPolicy = Object.fromEntries(coverage);
    io.out(
      `${JSON.stringify({ project: loaded.project.name, notes: loaded.notes, counts, coverage: { policies: coverage.size, judgeOnly: judgeOnly.length, byPolicy }, diagnostics }, null, 2)}\n`,
    );
  } else {
    for (const note of loaded.notes) io.err(`note: ${note.message}\n`);
    for (const d of diagnostics) io.out(`${formatDiagnostic(target, d)}\n`);
    io.out(`${summary(counts)}\n`);
    if (coverage.size > 0)
      io.out(
        `${judgeOnly.length} of ${coverage.size} ${coverage.size === 1 ? 'policy' : 'policies'} can only be reported by a judge model.\n`,
      );
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
  let tools: { name: string; description: string }[] = [];
  try {
    prompt = readFileSync(promptPath, 'utf8');
    if (toolsPath !== undefined) {
      const { project } = projectFromFiles('tools', {
        'tools.yaml': readFileSync(toolsPath, 'utf8'),
      });
      tools = parseProject(project).model.tools.map((t) => ({
        name: t.name,
        description: t.description,
      }));
    }
  } catch (error) {
    io.err(`policylab: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
  const policies = extractPolicies(prompt, tools).map(policyEntry);
  io.out(stringify({ policies }, { lineWidth: 0 }));
  return EXIT.ok;
}

/** The model of a project for `graph` and `sample`; problems in it only earn a warning. */
function loadModel(target: string, io: CliIO): { name: string; model: ProjectModel } | number {
  const loaded = loadProject(target);
  if ('error' in loaded) {
    io.err(`policylab: ${loaded.error}\n`);
    return EXIT.usage;
  }
  for (const note of loaded.notes) io.err(`note: ${note.message}\n`);
  const { model, diagnostics } = parseProject(loaded.project);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) {
    io.err(
      `warning: the project has ${errors} error${errors === 1 ? '' : 's'}; this uses what could be read. Run "policylab check ${target}" to see ${errors === 1 ? 'it' : 'them'}.\n`,
    );
  }
  return { name: loaded.project.name, model };
}

function graph(target: string, format: 'text' | 'json' | 'dot', io: CliIO): number {
  const loaded = loadModel(target, io);
  if (typeof loaded === 'number') return loaded;
  const { nodes, edges, categories } = buildGraph(loaded.model);
  if (format === 'json') {
    io.out(`${JSON.stringify({ project: loaded.name, nodes, edges, categories }, null, 2)}\n`);
  } else {
    io.out(
      format === 'dot'
        ? toDot(loaded.name, { nodes, edges, categories })
        : toText({ nodes, edges, categories }),
    );
  }
  return EXIT.ok;
}

function toText({ nodes, edges, categories }: PolicyGraph): string {
  const width = Math.max(0, ...nodes.map((n) => n.id.length));
  const category = Math.max(0, ...nodes.map((n) => n.category.length));
  const heuristic = edges.filter((e) => e.origin === 'heuristic').length;
  const pairWidth = Math.max(0, ...edges.map((e) => e.source.length + e.target.length + 4));
  const lines = [
    `${nodes.length} ${nodes.length === 1 ? 'policy' : 'policies'} in ${categories.length} categor${categories.length === 1 ? 'y' : 'ies'}:`,
    ...nodes.map(
      (n) => `  ${n.id.padEnd(width)}  ${n.category.padEnd(category)}  challenge ${n.challenge}`,
    ),
    '',
    `${edges.length} edge${edges.length === 1 ? '' : 's'} (${edges.length - heuristic} written, ${heuristic} heuristic):`,
    ...edges.map((e) => {
      const pair = `${e.source} -- ${e.target}`.padEnd(pairWidth);
      const origin = e.origin === 'heuristic' ? `heuristic: ${e.reasons.join('; ')}` : e.origin;
      return `  ${pair}  ${String(e.weight).padStart(2)}  ${origin}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}

/** A DOT string: quotes and backslashes escaped, line breaks as DOT's own \n. */
const quote = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;

function toDot(name: string, { nodes, edges }: PolicyGraph): string {
  const lines = [`graph ${quote(name)} {`, '  node [shape=box, style=rounded];'];
  for (const n of nodes) {
    const label = `${n.id}\n${n.category}, challenge ${n.challenge}`;
    lines.push(`  ${quote(n.id)} [label=${quote(label)}, tooltip=${quote(n.text)}];`);
  }
  for (const e of edges) {
    const attributes = [`label=${quote(String(e.weight))}`, `penwidth=${1 + e.weight / 5}`];
    if (e.origin === 'heuristic')
      attributes.push('style=dashed', `tooltip=${quote(e.reasons.join('; '))}`);
    lines.push(`  ${quote(e.source)} -- ${quote(e.target)} [${attributes.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

interface SampleArgs {
  readonly json?: boolean | undefined;
  readonly seed?: string | undefined;
  readonly count?: string | undefined;
  readonly levels?: string | undefined;
  readonly 'prefer-uncovered'?: boolean | undefined;
}

function sample(target: string, args: SampleArgs, io: CliIO): number {
  const seed = args.seed ?? '1';
  if (!/^-?\d+$/.test(seed) || !Number.isSafeInteger(Number(seed)))
    return usage(io, `--seed must be a whole number, not "${seed}".`);
  const count = args.count ?? '10';
  if (!/^\d+$/.test(count) || Number(count) < 1 || Number(count) > 1_000_000)
    return usage(io, `--count must be a whole number from 1 to 1000000, not "${count}".`);
  const read = parseLevelBand(args.levels ?? formatLevelBand(DEFAULT_LEVELS));
  if ('problem' in read) return usage(io, `--levels: ${read.problem}`);
  const loaded = loadModel(target, io);
  if (typeof loaded === 'number') return loaded;
  const options = {
    seed: Number(seed),
    count: Number(count),
    levels: read.band,
    preferUncovered: args['prefer-uncovered'] === true,
  };
  const { samples, unreachable } = sampleWithReport(buildGraph(loaded.model), options);
  if (args.json) {
    io.out(
      `${JSON.stringify({ project: loaded.name, ...options, samples, unreachable }, null, 2)}\n`,
    );
  } else {
    for (const { from, to, reason } of unreachable) {
      const levels = from === to ? `level ${from}` : `levels ${from}-${to}`;
      io.err(`warning: ${levels} cannot be sampled: ${reason}.\n`);
    }
    for (const s of samples)
      io.out(`level ${s.level} (target ${s.target}): ${s.policies.join(', ')}\n`);
  }
  if (samples.length === 0) {
    io.err('policylab: no level of the band can be sampled from this graph.\n');
    return EXIT.problems;
  }
  return EXIT.ok;
}
