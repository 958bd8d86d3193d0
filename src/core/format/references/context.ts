import type { CelContext } from '../../celVariables.ts';
import { checkCel } from '../../cel.ts';
import type { Diagnostic, Severity } from '../../diagnostics.ts';
import { diagnosticAt } from '../../diagnostics.ts';
import type { ProjectFileName } from '../../project.ts';
import { closest } from '../../text.ts';
import type { ProjectModel, Table } from '../model.ts';
import type { YamlFile, YamlPath } from '../yamlFile.ts';

/** The parsed YAML files of a project, by name (agent.md is not YAML). */
export type YamlFiles = Readonly<Record<Exclude<ProjectFileName, 'agent.md'>, YamlFile>>;

/** What every reference checker reads: the model, the files it was built from, and their names. */
export interface ReferenceContext {
  readonly model: ProjectModel;
  readonly files: YamlFiles;
  /** How many lines agent.md has, for the policies' `source.line`. */
  readonly promptLineCount: number;
  readonly policyIds: ReadonlySet<string>;
  readonly toolNames: ReadonlySet<string>;
  /** Tables by name; of two tables with one name, the later. */
  readonly tables: ReadonlyMap<string, Table>;
}

/** One concern of `checkReferences`: what it finds wrong in a project, as diagnostics. */
export type ReferenceChecker = (context: ReferenceContext) => Diagnostic[];

/** The context the reference checkers share, with the names each file defines. */
export function referenceContext(
  model: ProjectModel,
  files: YamlFiles,
  promptLineCount: number,
): ReferenceContext {
  return {
    model,
    files,
    promptLineCount,
    policyIds: new Set(model.policies.map((p) => p.id)),
    toolNames: new Set(model.tools.map((t) => t.name)),
    tables: new Map(model.tables.map((t) => [t.name, t])),
  };
}

/**
 * Whether a file could be read at all. One that could not yields no names, and checking against
 * it would only report every reference to it as unknown, burying the one real error.
 */
export function readable(context: ReferenceContext, file: keyof YamlFiles): boolean {
  return context.files[file].value !== undefined;
}

/** `Unknown tool "x".`, with a guess when a known name is close enough to be a typo. */
export function unknownName(kind: string, name: string, known: Iterable<string>): string {
  const guess = closest(name, known);
  return `Unknown ${kind} "${name}".${guess ? ` Did you mean "${guess}"?` : ''}`;
}

/** Calls `onDuplicate` for every item whose id an earlier item already has. */
export function duplicates<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  onDuplicate: (item: T, id: string) => void,
): void {
  const seen = new Set<string>();
  for (const item of items) {
    const id = idOf(item);
    if (seen.has(id)) onDuplicate(item, id);
    seen.add(id);
  }
}

/** A checker's diagnostics as it collects them, with the checks that several checkers share. */
export class Findings {
  readonly diagnostics: Diagnostic[] = [];
  private readonly context: ReferenceContext;

  constructor(context: ReferenceContext) {
    this.context = context;
  }

  /** A problem with the value at `path`. */
  report(
    file: keyof YamlFiles,
    path: YamlPath,
    code: string,
    message: string,
    severity: Severity = 'error',
  ): void {
    this.diagnostics.push(this.context.files[file].at(path, severity, code, message));
  }

  /** An error at the key of the entry at `path` (a name that is itself the problem). */
  reportKey(file: keyof YamlFiles, path: YamlPath, code: string, message: string): void {
    this.diagnostics.push(this.context.files[file].atKey(path, 'error', code, message));
  }

  /** `id` must be a policy of policies.yaml. */
  policyRef(file: keyof YamlFiles, path: YamlPath, id: string): void {
    const { policyIds } = this.context;
    if (readable(this.context, 'policies.yaml') && !policyIds.has(id))
      this.report(file, path, 'unknown-policy', unknownName('policy', id, policyIds));
  }

  /** `name` must be a tool of tools.yaml. */
  toolRef(file: keyof YamlFiles, path: YamlPath, name: string): void {
    const { toolNames } = this.context;
    if (readable(this.context, 'tools.yaml') && !toolNames.has(name))
      this.report(file, path, 'unknown-tool', unknownName('tool', name, toolNames));
  }

  /**
   * `source` must be valid CEL where it is used (`celContext`, plus the variables `extra` names):
   * the problem points into it.
   */
  condition(
    file: keyof YamlFiles,
    path: YamlPath,
    source: string,
    celContext: CelContext,
    extra: readonly string[] = [],
  ): void {
    const problem = checkCel(source, celContext, extra);
    if (problem)
      this.diagnostics.push(
        celDiagnostic(this.context.files[file], path, source, problem.offset, problem.message),
      );
  }
}

/** Points a CEL problem at its own line and column inside the YAML scalar that holds it. */
function celDiagnostic(
  file: YamlFile,
  path: YamlPath,
  source: string,
  offset: number,
  message: string,
): Diagnostic {
  const span = file.spanOf(path);
  const written = file.text.slice(span.start, span.end);
  const at = written.indexOf(source);
  if (at >= 0) {
    const start = span.start + at + Math.min(offset, source.length);
    const tokenEnd = /^[\w.]+/.exec(source.slice(offset))?.[0].length ?? 1;
    return diagnosticAt(
      file.file,
      file.index,
      { start, end: start + Math.max(1, tokenEnd) },
      'error',
      'cel',
      `CEL: ${message}`,
    );
  }
  return diagnosticAt(file.file, file.index, span, 'error', 'cel', `CEL: ${message}`);
}
