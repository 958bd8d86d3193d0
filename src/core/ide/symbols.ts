import type { ProjectModel } from '../format/model.ts';
import type { ParsedProject } from '../format/parseProject.ts';
import type { ProjectFileName } from '../project.ts';

/** The kinds of names the IDE can navigate, find and rename. */
export type SymbolKind = 'policy' | 'tool' | 'table';

/** A name the cursor is on, and what it names. */
export interface SymbolName {
  readonly kind: SymbolKind;
  readonly name: string;
}

/** One place a name is written: a file and the span of the name itself. */
export interface Occurrence {
  readonly file: ProjectFileName;
  readonly start: number;
  readonly end: number;
  readonly isDefinition: boolean;
}

const NAME_CHAR = /[A-Za-z0-9_-]/;

/** The word at an offset, in the sense of an id: letters, digits, "-" and "_". */
export function wordAt(
  text: string,
  offset: number,
): { word: string; start: number; end: number } | undefined {
  let start = offset;
  let end = offset;
  while (start > 0 && NAME_CHAR.test(text.charAt(start - 1))) start--;
  while (end < text.length && NAME_CHAR.test(text.charAt(end))) end++;
  if (start === end) return undefined;
  return { word: text.slice(start, end), start, end };
}

/** What the word at `offset` names, if it is a policy id, a tool name or a table name. */
export function symbolAt(
  model: ProjectModel,
  text: string,
  offset: number,
): SymbolName | undefined {
  const at = wordAt(text, offset) ?? wordAt(text, offset - 1);
  if (!at) return undefined;
  if (model.policies.some((p) => p.id === at.word)) return { kind: 'policy', name: at.word };
  if (model.tools.some((t) => t.name === at.word)) return { kind: 'tool', name: at.word };
  if (model.tables.some((t) => t.name === at.word)) return { kind: 'table', name: at.word };
  return undefined;
}

/** Where a name is defined: the `id` of a policy, the `name` of a tool or table. */
export function definitionOf(parsed: ParsedProject, symbol: SymbolName): Occurrence | undefined {
  const { model, files } = parsed;
  const located =
    symbol.kind === 'policy'
      ? ['policies.yaml', model.policies.find((p) => p.id === symbol.name)?.path, 'id']
      : symbol.kind === 'tool'
        ? ['tools.yaml', model.tools.find((t) => t.name === symbol.name)?.path, 'name']
        : ['database.yaml', model.tables.find((t) => t.name === symbol.name)?.path, 'name'];
  const [file, path, field] = located as [
    keyof ParsedProject['files'],
    readonly (string | number)[] | undefined,
    string,
  ];
  if (!path) return undefined;
  const span = files[file].spanOf([...path, field]);
  return { file, start: span.start, end: span.end, isDefinition: true };
}
