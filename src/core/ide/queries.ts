// What the editor asks of the whole project (go to definition, find references, rename), as one
// plain request and answer, so the full parse and the search run wherever the caller likes: in a
// worker in the page (workers/ideProtocol.ts), in-thread in tests.
import type { ParsedProject } from '../format/parseProject.ts';
import type { Project, ProjectFileName } from '../project.ts';
import { referencesOf, renameSymbol } from './references.ts';
import type { Occurrence, SymbolName } from './symbols.ts';
import { definitionOf, symbolAt } from './symbols.ts';

/**
 * A question about the name at `offset` of `file`, whose text is `text` as the editor has it:
 * the name there (`symbol`), where it is defined, every place it is written, or the places a
 * rename to `newName` rewrites.
 */
export type IdeQuery = {
  readonly file: ProjectFileName;
  readonly text: string;
  readonly offset: number;
} & (
  | { readonly kind: 'symbol' | 'definition' | 'references' }
  | { readonly kind: 'rename'; readonly newName: string }
);

/**
 * The answer: the name at the cursor (null when there is none) and the places asked for (the
 * definition alone, every reference, or what a rename rewrites); `error` says why a rename
 * cannot be done.
 */
export interface IdeAnswer {
  readonly symbol: SymbolName | null;
  readonly places: readonly Occurrence[];
  readonly error?: string;
}

/** Answers an editor's question over `parsed`, the parse of `project`. Never throws. */
export function answerIdeQuery(
  project: Project,
  parsed: ParsedProject,
  query: IdeQuery,
): IdeAnswer {
  const symbol = symbolAt(parsed.model, query.text, query.offset) ?? null;
  if (!symbol) return { symbol, places: [] };
  switch (query.kind) {
    case 'symbol':
      return { symbol, places: [] };
    case 'definition': {
      const definition = definitionOf(parsed, symbol);
      return { symbol, places: definition ? [definition] : [] };
    }
    case 'references':
      return { symbol, places: referencesOf(project, parsed, symbol) };
    case 'rename': {
      const renamed = renameSymbol(project, parsed, symbol, query.newName);
      if ('error' in renamed) return { symbol, places: [], error: renamed.error };
      return { symbol, places: referencesOf(project, parsed, symbol) };
    }
  }
}
