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

/** Parses one YAML file. Never throws: every problem becomes a diagnostic. */
export function parseYamlFile(file: ProjectFileName, text: string): YamlFile {
  const index = new LineIndex(text);
  let parsedDoc: Document | undefined;
  const documentOf = () =>
    (parsedDoc ??= parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true }));
  const quick = quickValue(text);
  const diagnostics: Diagnostic[] = [];
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
          `This file cannot be read: ${error instanceof Error ? error.message : String(error)}`,
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
  const firstLine = message.split('\n')[0] ?? message;
  const text = firstLine.replace(/ at line \d+, column \d+:?$/, '').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
