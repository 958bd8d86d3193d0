import { Document, Scalar, isMap, isScalar, isSeq, parseDocument } from 'yaml';

// How values are written into a YAML file being edited (`yamlEdit.ts` decides where).

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
  const text = doc.toString({
    lineWidth: 0,
    flowCollectionPadding: true,
    indentSeq: true,
    singleQuote: true,
  });
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

/** How to write one scalar: in a flow collection or not, and in the style of the one it replaces. */
export interface ScalarStyle {
  readonly flow?: boolean | undefined;
  /** The type of the scalar being replaced: quoted and block scalars keep their style. */
  readonly like?: Scalar.Type | undefined;
  /** The column of the key it belongs to (block scalars are indented past it). */
  readonly column?: number | undefined;
}

/**
 * Writes a scalar as YAML: plain when YAML allows it, otherwise quoted (single quotes first, the
 * way the repository's Prettier writes YAML). A multi-line string becomes a block scalar only
 * where it replaces one; elsewhere it is double-quoted, so the rest of its line stays as it was.
 */
export function renderScalar(value: string | number | boolean, style: ScalarStyle = {}): string {
  const like = typeof value === 'string' ? style.like : undefined;
  let type: Scalar.Type | undefined;
  // A block scalar keeping a final line break would take in blank lines after it: not those.
  const block = like === 'BLOCK_FOLDED' || like === 'BLOCK_LITERAL';
  if (block && !style.flow && typeof value === 'string' && !value.endsWith('\n')) type = like;
  else if (typeof value === 'string' && /[\r\n]/.test(value)) type = 'QUOTE_DOUBLE';
  else if (like === 'QUOTE_DOUBLE' || like === 'QUOTE_SINGLE') type = like;
  const text = writeScalar(value, type, style);
  // A few odd strings (lines of spaces in a folded block) do not read back; double quotes do.
  return type === 'QUOTE_DOUBLE' || readsBack(text, value, style.flow)
    ? text
    : writeScalar(value, 'QUOTE_DOUBLE', style);
}

function writeScalar(
  value: string | number | boolean,
  type: Scalar.Type | undefined,
  style: ScalarStyle,
): string {
  const node = new Scalar(value);
  if (type !== undefined) node.type = type;
  const options = { singleQuote: true, flowCollectionPadding: false };
  if (style.flow) {
    const doc = new Document([node]);
    if (isSeq(doc.contents)) doc.contents.flow = true;
    return doc
      .toString({ ...options, lineWidth: 0 })
      .trimEnd()
      .slice(1, -1);
  }
  const column = style.column ?? 0;
  const block = type === 'BLOCK_FOLDED' || type === 'BLOCK_LITERAL';
  const lineWidth = block ? Math.max(40, 100 - column) : 0;
  const text = new Document({ k: node }).toString({ ...options, lineWidth }).replace(/\n$/, '');
  return text
    .slice(3)
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : ' '.repeat(column) + line))
    .join('\n');
}

function readsBack(text: string, value: unknown, flow = false): boolean {
  const doc = parseDocument(flow ? `[${text}]` : `k: ${text}`);
  const read: unknown = doc.toJS();
  return (
    doc.errors.length === 0 &&
    (flow ? (read as unknown[])[0] : (read as { k: unknown }).k) === value
  );
}

/** Writes a value in flow style on one line: `{ between: [a, b], weight: 3 }` (`{a: 1}` unpadded). */
export function renderFlow(value: unknown, padded = true): string {
  if (Array.isArray(value)) return `[${value.map((item) => renderFlow(item, padded)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) => `${renderScalar(key, { flow: true })}: ${renderFlow(item, padded)}`,
    );
    const pad = padded ? ' ' : '';
    return entries.length === 0 ? '{}' : `{${pad}${entries.join(', ')}${pad}}`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return renderScalar(value, { flow: true });
  }
  return 'null';
}
