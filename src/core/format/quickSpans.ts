import type { State } from 'js-yaml';
import { CORE_SCHEMA, load } from 'js-yaml';
import type { Span } from '../diagnostics.ts';
import type { YamlPath } from './yamlFile.ts';

/** One node as js-yaml read it: where it opened and closed, and its children in order. */
class Frame {
  end = -1;
  kind: string | null = null;
  result: unknown = undefined;
  readonly children: Frame[] = [];
  readonly start: number;
  constructor(start: number) {
    this.start = start;
  }
}

/** Where the scalars of a YAML text are written, read by js-yaml's parse events. */
export interface QuickSpans {
  /** Where the scalar at `path` is written, as the yaml library would say; undefined if unsure. */
  valueSpan(path: YamlPath): Span | undefined;
  /** Where the key of the entry at `path` is written; undefined if unsure. */
  keySpan(path: YamlPath): Span | undefined;
}

/**
 * Spans of a file's scalars without building the yaml library's document, which costs ten times
 * the fast parse on a large file and is otherwise built for the first diagnostic's position. It
 * answers only for paths that end at a plain or quoted scalar (or a key) and whose span checks
 * out against the text; anything else (block scalars, collections, an empty value)
 * is left to the document. Undefined when the text does not read.
 */
export function quickSpans(text: string): QuickSpans | undefined {
  const root = new Frame(0);
  const stack: Frame[] = [root];
  try {
    load(text, {
      schema: CORE_SCHEMA,
      listener: (event: 'open' | 'close', state: State) => {
        if (event === 'open') {
          stack.push(new Frame(state.position));
          return;
        }
        const frame = stack.pop();
        const parent = stack[stack.length - 1];
        if (!frame || !parent) return;
        frame.end = state.position;
        frame.kind = state.kind;
        frame.result = state.result;
        parent.children.push(frame);
      },
    });
  } catch {
    return undefined;
  }
  const top = root.children[0];
  if (!top || stack.length !== 1) return undefined;
  const find = (path: YamlPath) => frameAt(top, path);
  return {
    valueSpan: (path) => {
      const found = find(path);
      return found && scalarSpan(text, found.value);
    },
    keySpan: (path) => {
      const found = find(path);
      return found?.key && scalarSpan(text, found.key);
    },
  };
}

/** The node at `path` and, when its last step is a map key, that key's node. */
function frameAt(top: Frame, path: YamlPath): { value: Frame; key: Frame | undefined } | undefined {
  let node = top;
  let key: Frame | undefined;
  for (const step of path) {
    if (node.kind === 'mapping' && typeof step === 'string') {
      // Keys and values alternate.
      let found: number | undefined;
      for (let i = 0; i < node.children.length; i += 2) {
        if (node.children[i]?.result === step) found = i;
      }
      const value = found === undefined ? undefined : node.children[found + 1];
      if (found === undefined || !value) return undefined;
      key = node.children[found];
      node = value;
    } else if (node.kind === 'sequence' && typeof step === 'number') {
      const items = node.result as unknown[];
      const item = node.children[step];
      if (node.children.length !== items.length || !item) return undefined;
      key = undefined;
      node = item;
    } else {
      return undefined;
    }
  }
  return { value: node, key };
}

const SPACE = new Set([' ', '\t', '\n', '\r']);

/** The written span of a plain or quoted scalar, trimmed of the space js-yaml reads around it. */
function scalarSpan(text: string, frame: Frame): Span | undefined {
  if (frame.kind !== 'scalar') return undefined;
  let start = frame.start;
  let end = frame.end;
  while (start < end) {
    const char = text[start] ?? '';
    if (SPACE.has(char)) start++;
    else if (char === '#' && (start === 0 || SPACE.has(text[start - 1] ?? ''))) {
      const lineEnd = text.indexOf('\n', start);
      start = lineEnd === -1 ? end : lineEnd;
    } else break;
  }
  while (end > start && SPACE.has(text[end - 1] ?? '')) end--;
  if (start >= end) return undefined;
  const written = text.slice(start, end);
  const first = written[0] ?? '';
  const last = written[written.length - 1] ?? '';
  if (first === '|' || first === '>' || first === '#') return undefined;
  if (first === '"' || first === "'")
    return last === first && written.length > 1 ? { start, end } : undefined;
  // A plain scalar: a string must begin and end as written (no comment or stray mark taken in).
  const value = frame.result;
  if (typeof value === 'string' && (value[0] !== first || value[value.length - 1] !== last))
    return undefined;
  return { start, end };
}
