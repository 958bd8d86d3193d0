import type { Document, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { renderFlow, renderScalar, renderSequenceItems } from './yamlRender.ts';

/** One change to a text: the characters from `start` to `end` of the old text become `insert`. */
export interface TextSplice {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

/** The splices that make an edit (non-overlapping, offsets in the old text), or why it can't be made. */
export type SplicePlan =
  | { readonly ok: true; readonly splices: readonly TextSplice[] }
  | { readonly ok: false; readonly message: string };

/** A YAML document parsed for editing (with source tokens), or a worded reason it can't be read. */
export type EditableDocument =
  | { readonly ok: true; readonly doc: Document.Parsed }
  | { readonly ok: false; readonly message: string };

/** Parses a file to edit it: keeps the source tokens the editing functions here need. */
export function parseForEdit(text: string): EditableDocument {
  const doc = parseDocument(text, { keepSourceTokens: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error === undefined) return { ok: true, doc };
  const line = error.linePos?.[0].line;
  const what = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  return {
    ok: false,
    message: `The file can't be read as YAML${line === undefined ? '' : ` (line ${line})`}: ${what}. Fix the text first.`,
  };
}

/** Applies non-overlapping splices (in any order; offsets in `text`) and returns the new text. */
export function applySplices(text: string, splices: readonly TextSplice[]): string {
  let result = text;
  for (const { start, end, insert } of [...splices].sort((a, b) => b.start - a.start)) {
    result = result.slice(0, start) + insert + result.slice(end);
  }
  return result;
}

/** The line break a text uses: `\r\n` when it has any, else `\n`. Edits write the same. */
export function lineBreakOf(text: string): '\n' | '\r\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * Appends items to the sequence under a top-level key as a text edit: the rest of the file keeps
 * every byte, comments included. Creates the key when it is missing, and turns an empty flow
 * list (`key: []`) into a block list. Returns `undefined` when the file is not readable YAML or
 * the key holds something other than a list.
 */
export function appendToTopLevelSequence(
  text: string,
  key: string,
  items: readonly unknown[],
): string | undefined {
  const parsed = parseForEdit(text);
  if (!parsed.ok) return undefined;
  const plan = planAppend(text, parsed.doc, key, items);
  return plan.ok ? applySplices(text, plan.splices) : undefined;
}

/**
 * Plans appending items to the list under a top-level key, in the list's own style: its
 * indentation, one-line flow maps when its last item is one, `, item` inside a flow list, and
 * the file's line breaks. A missing key is added at the end, its items indented `indent` spaces.
 */
export function planAppend(
  text: string,
  doc: Document.Parsed,
  key: string,
  items: readonly unknown[],
  indent = 2,
): SplicePlan {
  if (items.length === 0) return { ok: true, splices: [] };
  const eol = lineBreakOf(text);
  const lines = (s: string) => s.replace(/\n/g, eol);
  const cannot = (message: string): SplicePlan => ({ ok: false, message });
  const root = doc.contents;
  if (root !== null && !isMap(root)) return cannot(`\`${key}\` can only be added to a mapping.`);
  const pair = root?.items.find((item) => isScalar(item.key) && item.key.value === key);
  const node = pair?.value as Node | null | undefined;
  const block = (pad: number) => lines(renderSequenceItems(items, pad));
  const splice = (start: number, end: number, insert: string): SplicePlan => ({
    ok: true,
    splices: [{ start, end, insert }],
  });

  if (pair === undefined) {
    if (root?.flow)
      return cannot(`\`${key}\` can't be added to a file written as one { ... } mapping.`);
    const first = root?.items[0]?.key;
    const keyPad = isScalar(first) ? columnOf(text, first.range[0]) : 0;
    const separator = text === '' || text.endsWith('\n') ? '' : eol;
    const head = `${separator}${' '.repeat(keyPad)}${key}:${eol}`;
    return splice(text.length, text.length, `${head}${block(keyPad + indent)}${eol}`);
  }
  const keyEnd = isScalar(pair.key) ? pair.key.range[1] : undefined;
  if (keyEnd === undefined) return cannot(`The key \`${key}\` can't be edited here.`);
  if (
    node === null ||
    (isScalar(node) && node.value === null && node.range?.[0] === node.range?.[1])
  ) {
    // `key:` with nothing after it: the list starts on the next line.
    const at = endOfLine(text, keyEnd);
    const newline = text.slice(0, at).endsWith('\n') ? '' : eol;
    return splice(at, at, `${newline}${block(indent)}${eol}`);
  }
  const empty = (isSeq(node) && node.flow && node.items.length === 0) || isNullScalar(node);
  if (empty && node?.range) {
    // `key: []` or `key: null` becomes `key:` and a block list; a comment after it stays.
    const [start, valueEnd] = node.range;
    const from = text.slice(0, start).replace(/[ \t]+$/, '').length;
    const lineEnd = endOfLine(text, valueEnd);
    const restOfLine = text.slice(valueEnd, lineEnd).replace(/\r?\n$/, '');
    return splice(from, lineEnd, `${restOfLine}${eol}${block(indent)}${eol}`);
  }
  if (!isSeq(node) || !node.range) return cannot(`\`${key}\` should be a list.`);
  const last = node.items.at(-1) as Node | null | undefined;
  if (node.flow) {
    const end = last?.range?.[1];
    if (end === undefined) return cannot(`The list under \`${key}\` can't be edited here.`);
    const inner = items.map((item) => `, ${renderFlow(item, padded(text, last))}`);
    return splice(end, end, inner.join(''));
  }
  const pad = columnOf(text, node.range[0]);
  const oneLine = isMap(last) && last.flow;
  const body = oneLine
    ? items.map((item) => `${' '.repeat(pad)}- ${renderFlow(item, padded(text, last))}`).join(eol)
    : block(pad);
  // After the last item's own text, before any blank lines or comments that follow the list.
  const at = endOfLine(text, (contentEnd(node) ?? node.range[1]) - 1);
  const newline = text.slice(0, at).endsWith('\n') ? '' : eol;
  return splice(at, at, `${newline}${body}${eol}`);
}

/**
 * Plans removing items (by index) from a list: a block item loses its lines (from its `-` to the
 * end of its last line, trailing comment included); comment lines between items stay. A block
 * list left empty becomes `key: []`, so it stays a list. Needs a document from `parseForEdit`.
 */
export function planRemoveItems(
  text: string,
  keyNode: Node,
  seq: YAMLSeq,
  indexes: readonly number[],
): SplicePlan {
  const doomed = new Set(indexes);
  const ranges = seq.items.map((item) => (item as Node | null)?.range);
  if ([...doomed].some((i) => ranges[i] === undefined)) {
    return { ok: false, message: 'The list has an item that cannot be edited.' };
  }
  const splices: TextSplice[] = [];
  if (seq.flow) {
    // Each run of removed items takes the separator after it, or before it when it ends the list.
    const n = ranges.length;
    for (let a = 0; a < n; a++) {
      if (!doomed.has(a)) continue;
      let b = a;
      while (doomed.has(b + 1)) b++;
      const startOf = (i: number) => ranges[i]?.[0] ?? 0;
      const endOf = (i: number) => ranges[i]?.[1] ?? 0;
      if (b < n - 1) splices.push({ start: startOf(a), end: startOf(b + 1), insert: '' });
      else if (a > 0) splices.push({ start: endOf(a - 1), end: endOf(b), insert: '' });
      else splices.push({ start: startOf(0), end: endOf(n - 1), insert: '' });
      a = b;
    }
    return { ok: true, splices };
  }
  const token = seq.srcToken;
  const dashes =
    token?.type === 'block-seq'
      ? token.items.flatMap((i) => i.start.filter((t) => t.type === 'seq-item-ind'))
      : [];
  for (const index of doomed) {
    const itemStart = ranges[index]?.[0] ?? 0;
    const itemEnd = contentEnd(seq.items[index] as Node) ?? 0;
    const dash = dashes.filter((t) => t.offset < itemStart).at(-1)?.offset;
    const lineStart = dash === undefined ? -1 : text.lastIndexOf('\n', dash - 1) + 1;
    if (dash === undefined || text.slice(lineStart, dash).trim() !== '') {
      return { ok: false, message: 'The list has an item that cannot be edited.' };
    }
    splices.push({ start: lineStart, end: endOfLine(text, itemEnd - 1), insert: '' });
  }
  if (doomed.size > 0 && doomed.size === seq.items.length) {
    const colon = keyNode.range ? text.indexOf(':', keyNode.range[1]) : -1;
    if (colon === -1) return { ok: false, message: 'The list has a key that cannot be edited.' };
    splices.push({ start: colon + 1, end: colon + 1, insert: ' []' });
  }
  return { ok: true, splices };
}

/**
 * Plans setting scalar entries of a map: an existing scalar is replaced in place (keeping its
 * quoting style and any comment after it); a missing key is inserted after the last key that
 * comes before it in `order` (or at the end), at the map's own indentation.
 */
export function planSetEntries(
  text: string,
  map: YAMLMap,
  entries: readonly (readonly [string, string | number])[],
  order: readonly string[] = [],
): SplicePlan {
  const eol = lineBreakOf(text);
  const firstKey = map.items[0]?.key as Node | undefined;
  const column = firstKey?.range ? columnOf(text, firstKey.range[0]) : 0;
  const splices: TextSplice[] = [];
  const inserts = new Map<number, string[]>();
  const rank = (key: unknown) => (typeof key === 'string' ? order.indexOf(key) : -1);
  for (const [key, value] of entries) {
    const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
    if (pair === undefined) {
      const before = map.items.filter((p) => rank(keyOf(p)) !== -1 && rank(keyOf(p)) < rank(key));
      const anchor = before.at(-1) ?? map.items.at(-1);
      const end = anchor ? endOf(anchor) : undefined;
      const at = end === undefined ? (map.range?.[0] ?? -1) + 1 : end;
      if (at <= 0) return { ok: false, message: `\`${key}\` cannot be added here.` };
      const spot = map.flow || end === undefined ? at : endOfLine(text, at - 1);
      inserts.set(spot, [
        ...(inserts.get(spot) ?? []),
        `${key}: ${renderScalar(value, { flow: map.flow, column })}`,
      ]);
      continue;
    }
    const old = pair.value as Node | null;
    const keyEnd = (pair.key as Node).range?.[1];
    if (isScalar(old) && old.value === value) continue;
    const range = isScalar(old) ? old.range : undefined;
    const from = range ? range[0] : keyEnd;
    const to = range ? range[1] : ((old ? contentEnd(old) : undefined) ?? keyEnd);
    if (from === undefined || to === undefined) {
      return { ok: false, message: `\`${key}\` cannot be edited here.` };
    }
    const like = isScalar(old) ? old.type : undefined;
    const rendered = renderScalar(value, { flow: map.flow, like, column });
    const tail = /\r?\n$/.test(text.slice(from, to)) ? eol : '';
    const lead = range ? (from === to && text[from - 1] === ':' ? ' ' : '') : ': ';
    splices.push({ start: from, end: to, insert: `${lead}${rendered.replace(/\n/g, eol)}${tail}` });
  }
  for (const [at, lines] of inserts) {
    if (map.flow) {
      const empty = map.items.length === 0;
      splices.push({
        start: at,
        end: at,
        insert: empty ? ` ${lines.join(', ')} ` : `, ${lines.join(', ')}`,
      });
    } else {
      const newline = text.slice(0, at).endsWith('\n') ? '' : eol;
      const body = lines.map((line) => ' '.repeat(column) + line.replace(/\n/g, eol)).join(eol);
      splices.push({ start: at, end: at, insert: `${newline}${body}${eol}` });
    }
  }
  return { ok: true, splices };
}

function keyOf(pair: Pair): unknown {
  return isScalar(pair.key) ? pair.key.value : undefined;
}

/** Where a pair's text ends: after its value, or after its key when it has none. */
function endOf(pair: Pair): number | undefined {
  const value = pair.value as Node | null;
  return (value ? contentEnd(value) : undefined) ?? (pair.key as Node | null)?.range?.[1];
}

/**
 * Where a node's own text ends. A block list's range runs on over comments after its last item
 * when that item ends in a nested list, so block collections are measured by their last entry.
 */
function contentEnd(node: Node): number | undefined {
  if ((isSeq(node) || isMap(node)) && !node.flow) {
    const last: unknown = node.items.at(-1);
    const inner = isMap(node)
      ? ((last as Pair | undefined)?.value ?? (last as Pair | undefined)?.key)
      : last;
    if (inner !== null && inner !== undefined) return contentEnd(inner as Node);
  }
  return node.range?.[1];
}

/** Whether a flow collection is written with spaces inside its brackets: `{ a: 1 }`. */
function padded(text: string, node: Node | null | undefined): boolean {
  const start = node?.range?.[0];
  return start === undefined || text[start + 1] === ' ';
}

function isNullScalar(node: unknown): boolean {
  return isScalar(node) && node.value === null;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset));
  return newline === -1 ? text.length : newline + 1;
}
