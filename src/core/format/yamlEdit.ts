import type { Node } from 'yaml';
import { Document, isMap, isScalar, isSeq, parseDocument } from 'yaml';

/**
 * Renders values as the items of a block sequence, indented to `indent` spaces. Nested maps and
 * lists of scalars are written in flow style (`{ line: 3 }`, `[a, b]`), the way people write them.
 */
export function renderSequenceItems(values: readonly unknown[], indent: number): string {
  const doc = new Document(values);
  const flowSmall = (node: unknown, depth: number): void => {
    if (isSeq(node) || isMap(node)) {
      if (
        depth >= 2 &&
        node.items.every((i) => isScalar(isMap(node) ? (i as { value: unknown }).value : i))
      ) {
        node.flow = true;
      }
      for (const item of node.items) {
        flowSmall(isMap(node) ? (item as { value: unknown }).value : item, depth + 1);
      }
    }
  };
  flowSmall(doc.contents, 0);
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: true, indentSeq: true });
  const pad = ' '.repeat(indent);
  return (
    text
      .trimEnd()
      .split('\n')
      // Lists of scalars as people write them: `[a, b]`, maps padded: `{ line: 3 }`.
      .map((line) => pad + line.replace(/: \[ (.*) \]$/, ': [$1]'))
      .join('\n')
  );
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
  if (items.length === 0) return text;
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  if (doc.contents !== null && !isMap(doc.contents)) return undefined;
  const pair = doc.contents?.items.find((item) => isScalar(item.key) && item.key.value === key);
  const node = pair?.value as Node | null | undefined;

  if (pair === undefined) {
    const body = renderSequenceItems(items, 2);
    const separator = text === '' || text.endsWith('\n') ? '' : '\n';
    return `${text}${separator}${key}:\n${body}\n`;
  }
  if (node === null || (isScalar(node) && node.value === null)) {
    // `key:` with nothing after it: the list starts on the next line.
    const keyRange = isScalar(pair.key) ? pair.key.range : undefined;
    if (!keyRange) return undefined;
    const at = endOfLine(text, keyRange[1]);
    const newline = text.slice(0, at).endsWith('\n') ? '' : '\n';
    return `${text.slice(0, at)}${newline}${renderSequenceItems(items, 2)}\n${text.slice(at)}`;
  }
  if (!isSeq(node) || !node.range) return undefined;
  const [start, valueEnd] = node.range;

  if (node.flow) {
    if (node.items.length > 0) return undefined;
    // `key: []` becomes `key:` followed by a block list; a comment after `[]` stays on its line.
    const before = text.slice(0, start).replace(/[ \t]+$/, '');
    const lineEnd = endOfLine(text, valueEnd);
    const restOfLine = text.slice(valueEnd, lineEnd).replace(/\n$/, '');
    return `${before}${restOfLine}\n${renderSequenceItems(items, 2)}\n${text.slice(lineEnd)}`;
  }

  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const indent = start - lineStart;
  // After the last item's own text, before any blank lines or comments that follow the list.
  const insertAt = endOfLine(text, valueEnd - 1);
  const prefix = text.slice(0, insertAt);
  const suffix = text.slice(insertAt);
  const needsNewline = !prefix.endsWith('\n');
  return `${prefix}${needsNewline ? '\n' : ''}${renderSequenceItems(items, indent)}\n${needsNewline ? suffix.replace(/^\n/, '') : suffix}`;
}

function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset));
  return newline === -1 ? text.length : newline + 1;
}
