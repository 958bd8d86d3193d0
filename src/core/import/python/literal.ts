import { closingIndex, splitTopLevel } from './statements.ts';
import type { PyToken } from './tokenize.ts';
import { tokenizePython } from './tokenize.ts';

/** A Python literal as plain JSON-like data. */
export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

/** Why a literal could not be read (the expression is not a plain literal). */
export interface NotLiteral {
  readonly notLiteral: string;
}

/** True when a read gave no value. */
export const isNotLiteral = (value: PyValue | NotLiteral): value is NotLiteral =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'notLiteral' in value;

const CONSTANTS: Readonly<Record<string, PyValue>> = { True: true, False: false, None: null };

/**
 * Reads the tokens of a Python literal (strings, numbers, True/False/None, lists, tuples, sets,
 * dicts, adjacent strings joined) as data, the way `ast.literal_eval` would, never running
 * anything. Anything else (a name, a call, an f-string) gives `{ notLiteral: why }`.
 */
export function literalOf(tokens: readonly PyToken[]): PyValue | NotLiteral {
  const [first] = tokens;
  if (first === undefined) return { notLiteral: 'empty expression' };
  if (first.type === 'string') {
    if (tokens.some((t) => t.type !== 'string')) return { notLiteral: 'an expression on a string' };
    if (tokens.some((t) => t.fstring === true)) return { notLiteral: 'an f-string' };
    return tokens.map((t) => t.value).join('');
  }
  if (tokens.length === 1 && first.type === 'name' && Object.hasOwn(CONSTANTS, first.value))
    return CONSTANTS[first.value] ?? null;
  if (first.type === 'op' && (first.value === '-' || first.value === '+') && tokens.length === 2) {
    const n = literalOf(tokens.slice(1));
    return typeof n === 'number' ? (first.value === '-' ? -n : n) : { notLiteral: 'a sign' };
  }
  if (tokens.length === 1 && first.type === 'number') {
    const text = first.value.replace(/_/g, '');
    if (/[jJ]$/.test(text)) return { notLiteral: 'a complex number' };
    const n = /^0[xob]/i.test(text)
      ? Number(text.toLowerCase())
      : Number(text.startsWith('.') ? `0${text}` : text);
    return Number.isFinite(n) ? n : { notLiteral: `the number ${first.value}` };
  }
  if (first.type === 'op' && '([{'.includes(first.value)) {
    if (closingIndex(tokens, 0) !== tokens.length)
      return { notLiteral: 'an expression after a bracket' };
    return containerOf(first.value, tokens.slice(1, -1));
  }
  return { notLiteral: `\`${tokens.map((t) => t.value).join(' ')}\``.slice(0, 80) };
}

function containerOf(open: string, inner: readonly PyToken[]): PyValue | NotLiteral {
  const parts = splitTopLevel(inner, ',');
  if (parts.length > 0 && parts[parts.length - 1]?.length === 0) parts.pop();
  if (open === '(' && parts.length === 1 && inner[inner.length - 1]?.value !== ',')
    return literalOf(parts[0] ?? []);
  if (open === '{' && parts.length === 0) return {};
  const isDict = open === '{' && parts.length > 0 && parts.every((p) => hasTopColon(p));
  if (isDict) {
    const result: Record<string, PyValue> = {};
    for (const part of parts) {
      const [keyTokens = [], ...rest] = splitTopLevel(part, ':');
      const key = literalOf(keyTokens);
      const value = literalOf(rest.flat());
      if (isNotLiteral(key)) return key;
      if (isNotLiteral(value)) return value;
      if (rest.length !== 1) return { notLiteral: 'a dict entry with more than one colon' };
      Object.defineProperty(result, keyText(key), {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return result;
  }
  const items: PyValue[] = [];
  for (const part of parts) {
    if (part.length === 0) return { notLiteral: 'an empty item' };
    const value = literalOf(part);
    if (isNotLiteral(value)) return value;
    items.push(value);
  }
  return items;
}

const hasTopColon = (tokens: readonly PyToken[]) => splitTopLevel(tokens, ':').length > 1;
const keyText = (key: PyValue) => (typeof key === 'string' ? key : JSON.stringify(key));

/** Reads a whole text (a CSV cell, say) as one Python literal. */
export function literalOfText(text: string): PyValue | NotLiteral {
  const { tokens, problems } = tokenizePython(text);
  if (problems.length > 0) return { notLiteral: problems[0]?.message ?? 'unreadable' };
  return literalOf(
    tokens.filter(
      (t) => t.type !== 'newline' && t.type !== 'eof' && t.type !== 'indent' && t.type !== 'dedent',
    ),
  );
}
