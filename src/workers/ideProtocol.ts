import type { ParsedProject } from '../core/format/parseProject.ts';
import { parseProject } from '../core/format/parseProject.ts';
import type { IdeAnswer, IdeQuery } from '../core/ide/queries.ts';
import { answerIdeQuery } from '../core/ide/queries.ts';
import type { Project } from '../core/index.ts';
import { PROJECT_FILES } from '../core/project.ts';

/** Asks the IDE worker about the name at the editor's cursor in `project`. */
export interface IdeRequest {
  readonly id: number;
  readonly project: Project;
  readonly query: IdeQuery;
}

/** The worker's answer: plain data only, so it crosses the thread boundary as is. */
export type IdeResponse =
  | { readonly id: number; readonly ok: true; readonly answer: IdeAnswer }
  | { readonly id: number; readonly ok: false; readonly error: string };

const sameFiles = (a: Project, b: Project) =>
  PROJECT_FILES.every((f) => a.files[f.name] === b.files[f.name]);

/**
 * The IDE worker's whole job (tests drive it in-process): parses the project and answers the
 * query. The last parse is kept while the texts stay the same, so asking where a rename lands and
 * then renaming, or pressing F12 twice, parses a big project once. `parse` is core's parseProject
 * unless a test counts the parses.
 */
export function createIdeServer(
  parse: (project: Project) => ParsedProject = parseProject,
): (request: IdeRequest) => IdeResponse {
  let last: { project: Project; parsed: ParsedProject } | undefined;
  return ({ id, project, query }) => {
    try {
      if (!last || !sameFiles(last.project, project)) last = { project, parsed: parse(project) };
      return { id, ok: true, answer: answerIdeQuery(project, last.parsed, query) };
    } catch (error) {
      return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
