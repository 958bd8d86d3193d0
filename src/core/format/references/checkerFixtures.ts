import type { Diagnostic } from '../../diagnostics.ts';
import { LineIndex } from '../../diagnostics.ts';
import type { Project } from '../../project.ts';
import { PROJECT_FILES } from '../../project.ts';
import { parseProject } from '../parseProject.ts';
import type { ReferenceChecker } from './context.ts';
import { referenceContext } from './context.ts';

/*
 * For the checkers' tests: run one checker on a project as parseProject reads it, and show what
 * it found in a line a test can compare exactly.
 */

/** The diagnostics one checker finds in a project, in the words and places a user would see. */
export function runChecker(checker: ReferenceChecker, project: Project): string[] {
  const { model, files } = parseProject(project);
  const lines = new LineIndex(project.files['agent.md']).lineCount;
  return checker(referenceContext(model, files, lines)).map((d) => shown(d, project));
}

/**
 * A diagnostic as `file:line:column "text it underlines" severity code: message`, so a test
 * pins its place (and shows what is there) as well as its words.
 */
export function shown(d: Diagnostic, project: Project): string {
  const index = new LineIndex(project.files[d.file]);
  const under = index.text.slice(
    index.offset(d.line, d.column),
    index.offset(d.endLine, d.endColumn),
  );
  return `${d.file}:${d.line}:${d.column} ${JSON.stringify(under)} ${d.severity} ${d.code}: ${d.message}`;
}

/** The example projects of public/examples, read with `read` (a path from the repository root). */
export function exampleProjects(read: (path: string) => string): Project[] {
  return ['airline', 'store'].map((id) => ({
    name: id,
    files: Object.fromEntries(
      PROJECT_FILES.map((f) => [f.name, read(`public/examples/${id}/${f.name}`)]),
    ) as Project['files'],
  }));
}
