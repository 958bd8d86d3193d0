import type { PyValue } from './literal.ts';
import { isNotLiteral, literalOf } from './literal.ts';
import { closingIndex, splitTopLevel } from './statements.ts';
import type { PyToken } from './tokenize.ts';
import { tokenizePython } from './tokenize.ts';

/** A Python type annotation read as a tree: `Dict[str, List[Order]]`, `Literal["a", "b"]`. */
export type PyType =
  | { readonly kind: 'name'; readonly name: string; readonly args: readonly PyType[] }
  | { readonly kind: 'literal'; readonly values: readonly PyValue[] }
  | { readonly kind: 'unknown'; readonly text: string };

/**
 * Reads an annotation as written (`Optional[List[str]]`, `str | None`, `"Order"`), never running
 * it. Module prefixes are dropped (`typing.List` is `List`); what it cannot read is `unknown`.
 */
export function readAnnotation(text: string): PyType {
  const { tokens, problems } = tokenizePython(text);
  const body = tokens.filter(
    (t) => t.type !== 'newline' && t.type !== 'eof' && t.type !== 'indent' && t.type !== 'dedent',
  );
  if (problems.length > 0 || body.length === 0) return { kind: 'unknown', text };
  return typeOf(body, text);
}

function typeOf(tokens: readonly PyToken[], text: string): PyType {
  const union = splitTopLevel(tokens, '|');
  if (union.length > 1)
    return { kind: 'name', name: 'Union', args: union.map((p) => typeOf(p, text)) };
  const [first] = tokens;
  if (first?.type === 'string' && tokens.length === 1) {
    // A forward reference: "Order".
    return readAnnotation(first.value);
  }
  let i = 0;
  const parts: string[] = [];
  while (tokens[i]?.type === 'name') {
    parts.push(tokens[i]?.value ?? '');
    if (tokens[i + 1]?.value !== '.') break;
    i += 2;
  }
  const name = parts[parts.length - 1];
  if (name === undefined) return { kind: 'unknown', text };
  const next = i + 1;
  if (next === tokens.length) return { kind: 'name', name, args: [] };
  if (tokens[next]?.value !== '[' || closingIndex(tokens, next) !== tokens.length)
    return { kind: 'unknown', text };
  const inner = splitTopLevel(tokens.slice(next + 1, -1), ',').filter((p) => p.length > 0);
  if (name === 'Literal') {
    const values: PyValue[] = [];
    for (const part of inner) {
      const value = literalOf(part);
      if (isNotLiteral(value)) return { kind: 'unknown', text };
      values.push(value);
    }
    return { kind: 'literal', values };
  }
  return { kind: 'name', name, args: inner.map((p) => typeOf(p, text)) };
}
