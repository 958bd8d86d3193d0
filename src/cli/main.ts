import { parseArgs } from 'node:util';
import { PROJECT_FILES } from '../core/index.ts';

/** Where the CLI writes; injected so tests can read what a person would see. */
export interface CliIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** Exit codes: 0 success, 2 the command line was wrong. Later commands add 1 for "found errors". */
export const EXIT = { ok: 0, usage: 2 } as const;

/** The text of `policylab --help`. */
export function helpText(): string {
  const width = Math.max(...PROJECT_FILES.map((f) => f.name.length));
  const files = PROJECT_FILES.map((f) => `  ${f.name.padEnd(width)}  ${f.summary}`).join('\n');
  return `policylab: write, graph, simulate and replay the policies of a conversational agent.

Usage:
  policylab [options]

Options:
  -h, --help     Show this help.
  -v, --version  Print the version of PolicyLab.

A project is a folder holding these files:
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
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.err(`policylab: ${error instanceof Error ? error.message : String(error)}\n`);
    io.err('Run "policylab --help" to see what it accepts.\n');
    return EXIT.usage;
  }

  if (parsed.values.version) {
    io.out(`${version}\n`);
    return EXIT.ok;
  }
  const [command] = parsed.positionals;
  if (command !== undefined) {
    io.err(`policylab: unknown command "${command}".\n`);
    io.err('Run "policylab --help" to see the commands.\n');
    return EXIT.usage;
  }
  io.out(helpText());
  return EXIT.ok;
}
