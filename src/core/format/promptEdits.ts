import type { Node, Pair, YAMLMap } from 'yaml';
import { isMap, isPair, isScalar, parseDocument } from 'yaml';
import type { PromptKey } from '../sim/prompts.ts';
import { applySplices, lineBreakOf, parseForEdit } from './yamlEdit.ts';
import { renderScalar } from './yamlRender.ts';

/** The result of editing `prompts:` in scenarios.yaml: the new text and the entry's line, or why not. */
export type PromptEdit =
  | { readonly ok: true; readonly text: string; readonly line: number }
  | { readonly ok: false; readonly message: string };

const KEY = 'prompts';

/**
 * Adds the project's own text for one prompt under `prompts:` in scenarios.yaml, as a literal
 * block (`key: |-`) so it reads as written; the rest of the file keeps every byte. Creates
 * `prompts:` at the end when it is missing. An entry already there is left as it is. `line` is
 * the entry's line (from 1), for the editor to show.
 */
export function setPromptOverride(text: string, key: PromptKey, prompt: string): PromptEdit {
  const parsed = parseForEdit(text);
  if (!parsed.ok) return parsed;
  const eol = lineBreakOf(text);
  const root = parsed.doc.contents;
  if (root !== null && !isMap(root)) return cannot('scenarios.yaml is not a mapping.');
  const pair = root ? pairOf(root, KEY) : undefined;
  const existing = pair && isMap(pair.value) ? pairOf(pair.value, key) : undefined;
  if (existing) return { ok: true, text, line: lineOf(text, start(existing)) };

  const place = placeFor(text, root, pair, eol);
  if ('message' in place) return place;
  for (const body of [literalBlock(prompt, place.column, eol), quoted(prompt, place.column)]) {
    const entry = `${' '.repeat(place.column)}${key}: ${body}${eol}`;
    const next = applySplices(text, [
      { start: place.start, end: place.end, insert: `${place.before}${entry}` },
    ]);
    if (readsBack(next, key, prompt)) {
      return { ok: true, text: next, line: lineOf(next, place.start + place.before.length) };
    }
  }
  return cannot('This text cannot be written into scenarios.yaml.');
}

/**
 * Removes the project's own text for one prompt from scenarios.yaml (its lines, from the key to
 * the end of its text), and `prompts:` with it when nothing else is left there. A file without
 * the entry is returned as it is, with line 0.
 */
export function removePromptOverride(text: string, key: PromptKey): PromptEdit {
  const parsed = parseForEdit(text);
  if (!parsed.ok) return parsed;
  const root = parsed.doc.contents;
  const pair = isMap(root) ? pairOf(root, KEY) : undefined;
  const map = pair?.value;
  const entry = isMap(map) ? pairOf(map, key) : undefined;
  if (!pair || !isMap(map) || !entry) return { ok: true, text, line: 0 };
  if (map.flow) return cannot('`prompts:` is written as one { ... } mapping; edit it by hand.');
  const alone = map.items.length === 1;
  const doomed = alone ? pair : entry;
  const from = text.lastIndexOf('\n', start(doomed) - 1) + 1;
  const end = contentEnd(doomed);
  if (end === undefined || text.slice(from, start(doomed)).trim() !== '') {
    return cannot('This prompt cannot be removed here; edit scenarios.yaml by hand.');
  }
  const next = applySplices(text, [{ start: from, end: endOfLine(text, end - 1), insert: '' }]);
  return { ok: true, text: next, line: lineOf(next, Math.min(from, next.length)) };
}

/** Where a new entry goes: the stretch it replaces, what comes before it, and its column. */
interface Place {
  readonly start: number;
  readonly end: number;
  readonly before: string;
  readonly column: number;
}

function placeFor(
  text: string,
  root: YAMLMap | null,
  pair: Pair | undefined,
  eol: string,
): Place | { readonly ok: false; readonly message: string } {
  if (!pair) {
    if (root?.flow) return cannot('scenarios.yaml is written as one { ... } mapping.');
    const first = root?.items[0];
    const column = first ? columnOf(text, start(first)) : 0;
    const newline = text === '' || text.endsWith('\n') ? '' : eol;
    const before = `${newline}${' '.repeat(column)}${KEY}:${eol}`;
    return { start: text.length, end: text.length, before, column: column + 2 };
  }
  const value = pair.value as Node | null;
  const keyEnd = (pair.key as Node | null)?.range?.[1];
  if (keyEnd === undefined) return cannot('`prompts:` cannot be edited here.');
  const column = columnOf(text, start(pair)) + 2;
  const nothing = value === null || (isScalar(value) && value.value === null);
  const emptyFlow = isMap(value) && value.flow && value.items.length === 0;
  if ((nothing || emptyFlow) && value?.range && value.range[0] < value.range[1]) {
    // `prompts: null` or `prompts: {}` becomes `prompts:` and the entry; a comment stays.
    const [from, to] = value.range;
    const lineEnd = endOfLine(text, to);
    const rest = text.slice(to, lineEnd).replace(/\r?\n$/, '');
    const trimmed = text.slice(0, from).replace(/[ \t]+$/, '').length;
    return { start: trimmed, end: lineEnd, before: `${rest}${eol}`, column };
  }
  if (nothing || emptyFlow) {
    const at = endOfLine(text, keyEnd);
    const before = text.slice(0, at).endsWith('\n') ? '' : eol;
    return { start: at, end: at, before, column };
  }
  if (!isMap(value) || value.flow) {
    return cannot('`prompts:` should be a mapping of prompt names to their text, one a line.');
  }
  const first = value.items[0];
  const end = first ? contentEnd(value) : undefined;
  if (!first || end === undefined) return cannot('`prompts:` cannot be edited here.');
  const at = endOfLine(text, end - 1);
  const before = text.slice(0, at).endsWith('\n') ? '' : eol;
  return { start: at, end: at, before, column: columnOf(text, start(first)) };
}

function cannot(message: string): { readonly ok: false; readonly message: string } {
  return { ok: false, message };
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key);
}

function start(item: Pair | Node): number {
  const node = (isPair(item) ? item.key : item) as Node | null;
  return node?.range?.[0] ?? 0;
}

/** Where a pair's or a node's own text ends (a block map: where its last entry ends). */
function contentEnd(item: Pair | Node): number | undefined {
  if (isPair(item)) {
    const value = item.value as Node | null;
    return value ? contentEnd(value) : (item.key as Node | null)?.range?.[1];
  }
  if (isMap(item) && !item.flow) {
    const last = item.items.at(-1);
    if (last) return contentEnd(last);
  }
  return item.range?.[1];
}

/** `|-` and the lines indented two past the key; `|-` keeps the text exactly, no final break. */
function literalBlock(prompt: string, column: number, eol: string): string {
  const pad = ' '.repeat(column + 2);
  const lines = prompt.replace(/\r\n/g, '\n').split('\n');
  return `|-${eol}${lines.map((line) => (line === '' ? '' : pad + line)).join(eol)}`;
}

function quoted(prompt: string, column: number): string {
  return renderScalar(prompt, { column });
}

function readsBack(text: string, key: string, prompt: string): boolean {
  const doc = parseDocument(text);
  return doc.errors.length === 0 && doc.getIn([KEY, key]) === prompt;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset));
  return newline === -1 ? text.length : newline + 1;
}
