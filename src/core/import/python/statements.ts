import type { PyProblem, PyToken } from './tokenize.ts';
import { tokenizePython } from './tokenize.ts';

/** One logical line of Python, with the indented block under it when it ends in `:`. */
export interface PyStatement {
  readonly tokens: readonly PyToken[];
  readonly line: number;
  readonly body: readonly PyStatement[];
}

/**
 * The statements of a Python source as a tree of blocks (a `class`, `def`, `if` … with the
 * statements indented under it). Never throws; what it cannot read is in `problems`.
 */
export function readStatements(source: string): {
  statements: PyStatement[];
  problems: PyProblem[];
} {
  const { tokens, problems } = tokenizePython(source);
  let i = 0;
  const block = (): PyStatement[] => {
    const statements: PyStatement[] = [];
    while (i < tokens.length) {
      const token = tokens[i];
      if (token === undefined || token.type === 'eof') return statements;
      if (token.type === 'dedent') {
        i++;
        return statements;
      }
      if (token.type === 'indent') {
        // An indent that follows no `:` (a continuation we did not join): read it as a block of
        // its own so nothing is lost.
        i++;
        statements.push(...block());
        continue;
      }
      const line: PyToken[] = [];
      while (i < tokens.length) {
        const t = tokens[i];
        if (t === undefined || t.type === 'newline' || t.type === 'eof') break;
        if (t.type === 'indent' || t.type === 'dedent') break;
        line.push(t);
        i++;
      }
      if (tokens[i]?.type === 'newline') i++;
      const last = line[line.length - 1];
      let body: PyStatement[] = [];
      if (last?.type === 'op' && last.value === ':' && tokens[i]?.type === 'indent') {
        i++;
        body = block();
      }
      if (line.length > 0) statements.push({ tokens: line, line: line[0]?.line ?? 0, body });
    }
    return statements;
  };
  return { statements: block(), problems };
}

/** The source text a run of tokens spans, as written. */
export function textOf(source: string, tokens: readonly PyToken[]): string {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (first === undefined || last === undefined) return '';
  return source.slice(first.start, last.end);
}

/** Splits tokens at top-level (bracket depth 0) occurrences of the operator `op`. */
export function splitTopLevel(tokens: readonly PyToken[], op: string): PyToken[][] {
  const parts: PyToken[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.type === 'op' && '([{'.includes(t.value)) depth++;
    if (t.type === 'op' && ')]}'.includes(t.value)) depth--;
    if (depth === 0 && t.type === 'op' && t.value === op) parts.push([]);
    else parts[parts.length - 1]?.push(t);
  }
  return parts;
}

/** The index of the first top-level `op` in tokens, or -1. */
export function indexOfTopLevel(tokens: readonly PyToken[], op: string, from = 0): number {
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    if (t.type === 'op' && '([{'.includes(t.value)) depth++;
    if (t.type === 'op' && ')]}'.includes(t.value)) depth--;
    if (depth === 0 && t.type === 'op' && t.value === op) return i;
  }
  return -1;
}

/** The index just past the bracket that closes the one at `open`, or -1 when it never closes. */
export function closingIndex(tokens: readonly PyToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t?.type !== 'op') continue;
    if ('([{'.includes(t.value)) depth++;
    if (')]}'.includes(t.value)) depth--;
    if (depth === 0) return i + 1;
  }
  return -1;
}
