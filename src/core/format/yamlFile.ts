import { CORE_SCHEMA, load } from 'js-yaml';
import type { Document, Pair } from 'yaml';
import { isMap, isNode, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Diagnostic, Span } from '../diagnostics.ts';
import { LineIndex, diagnosticAt } from '../diagnostics.ts';
import type { ProjectFileName } from '../project.ts';
import type { QuickSpans } from './quickSpans.ts';
import { quickSpans } from './quickSpans.ts';

/** A path into a YAML value: map keys and sequence indexes. */
export type YamlPath = readonly (string | number)[];

/** The value at `path` inside a parsed YAML value, if there is one. */
export function valueAt(root: unknown, path: YamlPath): unknown {
  let value = root;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

/** A parsed YAML file that can say where any part of its value is written. */
export interface YamlFile {
  readonly file: ProjectFileName;
  readonly text: string;
  readonly index: LineIndex;
  /** The full document with positions; built on first use, since most files never need it. */
  readonly doc: Document;
  /** The plain value, or `undefined` when the text could not be read as YAML at all. */
  readonly value: unknown;
  readonly diagnostics: readonly Diagnostic[];
  /** Where the value at `path` is written; falls back to the nearest written parent. */
  spanOf(path: YamlPath): Span;
  /** Where the key of the entry at `path` is written (for "unknown field" and the like). */
  keySpanOf(path: YamlPath): Span;
  /** A diagnostic at the value at `path`. */
  at(path: YamlPath, severity: Diagnostic['severity'], code: string, message: string): Diagnostic;
  /** A diagnostic at the key of the entry at `path`. */
  atKey(
    path: YamlPath,
    severity: Diagnostic['severity'],
    code: string,
    message: string,
  ): Diagnostic;
}

/** Aliases may expand to at most this many nodes, so a "billion laughs" file cannot hang the page. */
const MAX_ALIAS_COUNT = 1000;

/** An alias (`*name`) or tag (`!x`) anywhere: such files take the careful path. */
const ALIAS_OR_TAG = /(?:^|[\s,[{:-])[*!][^\s,\]}]/m;

/**
 * Reads the value fast when it can: js-yaml with the YAML 1.2 core schema (the yaml library's
 * default) is an order of magnitude quicker. Returns undefined when the text needs the careful
 * path: a syntax error (to report every error with its place) or aliases (to cap expansion).
 */
function quickValue(text: string): { value: unknown } | undefined {
  if (ALIAS_OR_TAG.test(text)) return undefined;
  try {
    return { value: load(text, { schema: CORE_SCHEMA }) ?? null };
  } catch {
    return undefined;
  }
}

/**
 * Lists and maps inside each other deeper than this are not read: the parsers recurse per level,
 * and a file of thousands of `[` would end in "Maximum call stack size exceeded".
 */
export const MAX_YAML_DEPTH = 200;

/** Said instead of the parser's stack overflow, in case nesting too deep slips past the scan. */
const TOO_DEEP = `This file nests lists or maps too deeply to read (PolicyLab reads up to ${MAX_YAML_DEPTH} levels).`;

/**
 * Where flow lists and maps (`[`, `{`) first nest deeper than `MAX_YAML_DEPTH`, or -1: one pass
 * over the text, skipping quoted strings and comments.
 */
export function tooDeepAt(text: string): number {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if ((c === '"' || c === "'") && startsScalar(text, i)) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_YAML_DEPTH) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return -1;
}

/** Whether the character at `i` starts a scalar: after `:`, `-`, `,`, `[`, `{` or a line start. */
function startsScalar(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  return j < 0 || ':-,[{\n?'.includes(text[j] ?? '');
}

/** Parses one YAML file. Never throws: every problem becomes a diagnostic. */
export function parseYamlFile(file: ProjectFileName, text: string): YamlFile {
  const index = new LineIndex(text);
  // Nesting too deep is said at its place, and the file is read as empty rather than overflow.
  const deep = tooDeepAt(text);
  const readable = deep < 0 ? text : '';
  let parsedDoc: Document | undefined;
  const documentOf = () =>
    (parsedDoc ??= parseDocument(readable, {
      uniqueKeys: true,
      prettyErrors: false,
      strict: true,
    }));
  const quick = deep < 0 ? quickValue(text) : { value: undefined };
  const diagnostics: Diagnostic[] =
    deep < 0
      ? []
      : [
          diagnosticAt(
            file,
            index,
            { start: deep, end: deep + 1 },
            'error',
            'yaml-syntax',
            TOO_DEEP,
          ),
        ];
  const doc = quick ? undefined : documentOf();

  for (const error of doc?.errors ?? []) {
    const [start, end] = error.pos;
    diagnostics.push(
      diagnosticAt(file, index, { start, end }, 'error', 'yaml-syntax', yamlMessage(error.message)),
    );
  }
  for (const warning of doc?.warnings ?? []) {
    const [start, end] = warning.pos;
    diagnostics.push(
      diagnosticAt(
        file,
        index,
        { start, end },
        'warning',
        'yaml-warning',
        yamlMessage(warning.message),
      ),
    );
  }

  let value: unknown = quick?.value;
  if (doc && doc.errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      diagnostics.push(
        diagnosticAt(
          file,
          index,
          { start: 0, end: Math.min(text.length, 1) },
          'error',
          'yaml-syntax',
          error instanceof RangeError && /call stack/i.test(error.message)
            ? TOO_DEEP
            : `This file cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  const firstLineEnd = text.indexOf('\n');
  const whole: Span = { start: 0, end: firstLineEnd === -1 ? text.length : firstLineEnd };

  function spanOfNode(node: unknown): Span | undefined {
    if (isNode(node) && node.range) return { start: node.range[0], end: node.range[1] };
    return undefined;
  }

  function nodeAt(path: YamlPath): { node: unknown; pair: Pair | undefined; depth: number } {
    let node: unknown = documentOf().contents;
    let pair: Pair | undefined;
    let depth = 0;
    for (const key of path) {
      if (isMap(node)) {
        const found = node.items.find((item) => isPair(item) && keyValue(item) === key);
        if (!found) break;
        pair = found;
        node = found.value;
      } else if (isSeq(node) && typeof key === 'number') {
        const item: unknown = node.items[key];
        if (item === undefined) break;
        pair = undefined;
        node = item;
      } else {
        break;
      }
      depth++;
    }
    return { node, pair, depth };
  }

  // Positions of scalars from js-yaml's parse events, while the document is not built: a large
  // file with a diagnostic on every entry then never pays for the document.
  let spans: QuickSpans | null | undefined;
  const quickly = () => (parsedDoc || !quick ? null : (spans ??= quickSpans(text) ?? null));

  function spanOf(path: YamlPath): Span {
    const fast = quickly()?.valueSpan(path);
    if (fast) return fast;
    const { node, pair, depth } = nodeAt(path);
    if (depth < path.length && pair) return spanOfNode(pair.key) ?? whole;
    return spanOfNode(node) ?? (pair ? spanOfNode(pair.key) : undefined) ?? whole;
  }

  function keySpanOf(path: YamlPath): Span {
    const fast = quickly()?.keySpan(path);
    if (fast) return fast;
    const { pair, depth } = nodeAt(path);
    if (depth === path.length && pair) return spanOfNode(pair.key) ?? spanOf(path);
    return spanOf(path);
  }

  return {
    file,
    text,
    index,
    get doc() {
      return documentOf();
    },
    value,
    diagnostics,
    spanOf,
    keySpanOf,
    at: (path, severity, code, message) =>
      diagnosticAt(file, index, spanOf(path), severity, code, message),
    atKey: (path, severity, code, message) =>
      diagnosticAt(file, index, keySpanOf(path), severity, code, message),
  };
}

function keyValue(pair: Pair): unknown {
  return isScalar(pair.key) ? pair.key.value : pair.key;
}

/** The yaml library's messages, minus its error codes and with a capital first letter. */
function yamlMessage(message: string): string {
  if (/maximum call stack/i.test(message)) return TOO_DEEP;
  const firstLine = message.split('\n')[0] ?? message;
  const text = firstLine.replace(/ at line \d+, column \d+:?$/, '').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
