import type { Diagnostic } from './diagnostics.ts';
import { sortDiagnostics } from './diagnostics.ts';
import type { ParsedProject } from './format/parseProject.ts';
import { TOO_LARGE } from './format/limits.ts';
import { parseProject } from './format/parseProject.ts';
import { lintProject } from './lint/lint.ts';
import type { Project } from './project.ts';
import { PROJECT_FILES } from './project.ts';

/** A project read and linted: its model and every diagnostic, in file and line order. */
export interface ProjectAnalysis extends ParsedProject {
  readonly diagnostics: readonly Diagnostic[];
}

/** Parses a project and lints it. Never throws. */
export function analyzeProject(project: Project): ProjectAnalysis {
  const parsed = parseProject(project);
  // A project past the size limits was not read: linting its empty stand-in says nothing true.
  if (parsed.diagnostics.some((d) => d.code === TOO_LARGE)) return parsed;
  const diagnostics = sortDiagnostics(
    [...parsed.diagnostics, ...lintProject(parsed)],
    PROJECT_FILES.map((f) => f.name),
  );
  return { ...parsed, diagnostics };
}
