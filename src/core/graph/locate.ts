/** Where one policy is written in policies.yaml: its whole item and its id's value. */
export interface PolicySpan {
  readonly id: string;
  /** Offsets of the item, from its `-` to the end of its last line. */
  readonly start: number;
  readonly end: number;
  /** Offset of the id's value, where the editor puts the cursor. */
  readonly idAt: number;
}

const ITEM = /^( *)- +/;
const ID = /^( *)(?:- +)?id: *(['"]?)([^'"#\s]+)\2/;

/**
 * The policy items of a block-style policies.yaml, found by reading lines: fast enough to run on
 * every cursor move in a large file. Items in flow style (`policies: [{...}]`) are not found; the
 * graph then just does not follow the cursor there.
 */
export function policySpans(text: string): PolicySpan[] {
  const spans: PolicySpan[] = [];
  let inPolicies = false;
  let itemIndent = -1;
  let current: { start: number; idAt: number; id: string | undefined; end: number } | undefined;
  const close = () => {
    if (current?.id !== undefined) {
      spans.push({ id: current.id, start: current.start, end: current.end, idAt: current.idAt });
    }
    current = undefined;
  };
  let offset = 0;
  for (const line of text.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    const content = line.replace(/\r$/, '');
    if (/^\S/.test(content) && !content.startsWith('#')) {
      // A top-level key starts or ends the policies section.
      close();
      inPolicies = /^policies *:/.test(content);
      itemIndent = -1;
      if (!inPolicies) continue;
    }
    if (!inPolicies || content.trim() === '' || content.trim().startsWith('#')) continue;
    const item = ITEM.exec(content);
    const indent = content.length - content.trimStart().length;
    if (item && (itemIndent === -1 || indent === itemIndent)) {
      close();
      itemIndent = indent;
      current = {
        start: lineStart + indent,
        idAt: -1,
        id: undefined,
        end: lineStart + content.length,
      };
    }
    if (!current) continue;
    current.end = lineStart + content.length;
    const id = ID.exec(content);
    if (id && current.id === undefined && (id[1] ?? '').length <= itemIndent + 2) {
      const value = id[3] ?? '';
      current.id = value;
      current.idAt = lineStart + content.indexOf(value, id[0].length - value.length - 1);
    }
  }
  close();
  return spans;
}

/** The policy whose item holds `offset`, if any. */
export function policyAtOffset(spans: readonly PolicySpan[], offset: number): string | undefined {
  return spans.find((s) => offset >= s.start && offset <= s.end)?.id;
}
