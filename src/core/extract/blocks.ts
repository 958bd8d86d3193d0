import type { Span } from './sentences.ts';

/** A paragraph or one list item of a Markdown prompt (its continuation lines included). */
export interface Block {
  readonly kind: 'paragraph' | 'item';
  /** The block's words: after the bullet, up to the last character of its last line. */
  readonly span: Span;
  readonly line: number;
  readonly endLine: number;
  /** The nearest heading above, as written. */
  readonly heading: string;
  /** For an item: the item it is nested in (an index into the blocks). */
  readonly parent: number | undefined;
  /** For a top-level item: the paragraph just before its list (an index into the blocks). */
  readonly intro: number | undefined;
}

const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(?=\S)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const RULE_LINE = /^\s*([-*_])(?:\s*\1){2,}\s*$/;
const TABLE_ROW = /^\s*\|/;

interface Line {
  readonly start: number;
  readonly text: string;
}

/**
 * The paragraphs and list items of a Markdown prompt, in order, with their nesting. Code fences,
 * tables and thematic breaks hold no policies and give no blocks.
 */
export function markdownBlocks(prompt: string): Block[] {
  const lines: Line[] = [];
  let offset = 0;
  for (const raw of prompt.split('\n')) {
    lines.push({ start: offset, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw });
    offset += raw.length + 1;
  }
  const blocks: Block[] = [];
  let heading = '';
  let inFence = false;
  let stack: { indent: number; index: number }[] = [];
  let intro: number | undefined;
  let paragraph: { from: number; to: number } | undefined;

  const flush = () => {
    if (!paragraph) return;
    const first = lines[paragraph.from];
    const last = lines[paragraph.to];
    if (first && last) {
      const start = first.start + (first.text.length - first.text.trimStart().length);
      blocks.push({
        kind: 'paragraph',
        span: { start, end: last.start + last.text.trimEnd().length },
        line: paragraph.from + 1,
        endLine: paragraph.to + 1,
        heading,
        parent: undefined,
        intro: undefined,
      });
      intro = blocks.length - 1;
    }
    paragraph = undefined;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? { start: 0, text: '' };
    const text = line.text;
    if (FENCE.test(text)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const headingMatch = HEADING.exec(text);
    if (headingMatch) {
      flush();
      heading = headingMatch[2] ?? '';
      stack = [];
      intro = undefined;
      continue;
    }
    if (text.trim() === '') {
      flush();
      continue;
    }
    if (RULE_LINE.test(text) || TABLE_ROW.test(text)) {
      flush();
      stack = [];
      intro = undefined;
      continue;
    }
    const item = LIST_ITEM.exec(text);
    if (item) {
      flush();
      const indent = (item[1] ?? '').length;
      while ((stack.at(-1)?.indent ?? -1) >= indent) stack.pop();
      const parent = stack.at(-1)?.index;
      let end = i;
      // Continuation lines: indented deeper than the bullet and not a bullet themselves.
      while (end + 1 < lines.length) {
        const next = lines[end + 1]?.text ?? '';
        if (next.trim() === '' || LIST_ITEM.test(next) || HEADING.test(next) || FENCE.test(next))
          break;
        if (next.length - next.trimStart().length <= indent) break;
        end++;
      }
      const last = lines[end] ?? line;
      blocks.push({
        kind: 'item',
        span: { start: line.start + item[0].length, end: last.start + last.text.trimEnd().length },
        line: i + 1,
        endLine: end + 1,
        heading,
        parent,
        intro: parent === undefined ? intro : undefined,
      });
      stack.push({ indent, index: blocks.length - 1 });
      i = end;
      continue;
    }
    // A paragraph line. One indented under a list item belongs to the list and keeps it open.
    if (!(stack.length > 0 && /^\s/.test(text))) {
      stack = [];
      if (!paragraph) intro = undefined;
    }
    paragraph = paragraph ? { from: paragraph.from, to: i } : { from: i, to: i };
  }
  flush();
  return blocks;
}
