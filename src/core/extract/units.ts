import type { Block } from './blocks.ts';
import { markdownBlocks } from './blocks.ts';
import { isDataDescription, isFieldItem, isObligation } from './cues.ts';
import type { Span } from './sentences.ts';
import { cleanText, splitSentences } from './sentences.ts';

/** One rule found in a prompt: its words, the lead-in that makes it stand alone, where it is. */
export interface PolicyUnit {
  /** The rule as one sentence: the lead-in (if any), then its own words. */
  readonly text: string;
  /** Where its own words are in the prompt. */
  readonly spans: readonly Span[];
  /** Where the lead-in's words are: the parent items or the paragraph that opens its list. */
  readonly leadIn: readonly Span[];
  readonly line: number;
  readonly endLine: number;
  /** The nearest heading above it, as written. */
  readonly heading: string;
}

// A list of at most this many words per item under a lead-in ("Collect: first name, last name")
// is one rule, not one per item.
const SHORT_ITEM_WORDS = 4;

interface Piece {
  readonly span: Span;
  readonly text: string;
}

/**
 * Splits a Markdown prompt into the rules it states. A paragraph gives the sentences (and
 * clauses) that carry an obligation; a list item gives itself, or its obligation sentences when
 * it has several. A nested item keeps its parents' words, and an item the paragraph before its
 * list introduces ("… only if:") keeps that sentence, so each rule stands alone. Descriptions of
 * data (what a record holds, field lists, examples) give nothing.
 */
export function policyUnits(prompt: string): PolicyUnit[] {
  const blocks = markdownBlocks(prompt);
  const pieces = blocks.map((block) =>
    splitSentences(prompt, block.span).map((span) => ({
      span,
      text: cleanText(prompt.slice(span.start, span.end)),
    })),
  );
  const children = blocks.map(() => [] as number[]);
  const introduced = blocks.map(() => [] as number[]);
  blocks.forEach((block, index) => {
    if (block.parent !== undefined) children[block.parent]?.push(index);
    else if (block.intro !== undefined) introduced[block.intro]?.push(index);
  });
  const lineOf = lineIndex(prompt);
  // The items a block opens: an item's children, or the list just after a paragraph.
  const listOf = (index: number): readonly number[] =>
    (blocks[index]?.kind === 'item' ? children[index] : introduced[index]) ?? [];

  // The lead-in an item's own children (or a paragraph's list) get from it: its last sentence
  // when that ends in a colon, otherwise (for an item) all of it.
  const ownLeadIn = (index: number): Piece[] => {
    const own = pieces[index] ?? [];
    const last = own.at(-1);
    if (last && last.text.endsWith(':')) return [last];
    return blocks[index]?.kind === 'item' ? own : [];
  };
  const leadIns = new Map<number, Piece[]>();
  const leadInOf = (index: number): Piece[] => {
    const known = leadIns.get(index);
    if (known) return known;
    const block = blocks[index];
    let chain: Piece[] = [];
    if (block?.parent !== undefined)
      chain = [...leadInOf(block.parent), ...ownLeadIn(block.parent)];
    else if (block?.intro !== undefined) chain = ownLeadIn(block.intro);
    leadIns.set(index, chain);
    return chain;
  };

  const units: PolicyUnit[] = [];
  const emit = (block: Block, leadIn: readonly Piece[], own: readonly Piece[], text?: string) => {
    const first = own[0];
    const last = own.at(-1);
    if (!first || !last) return;
    const ownText = (text ?? own.map((p) => p.text).join(' ')).replace(/[\s;,]+$/, '');
    const joined = [...leadIn.map((p) => p.text.replace(/[\s:;,.]+$/, '')), ownText].join(': ');
    if (wordCount(ownText) < 1 || wordCount(joined) < 3) return;
    units.push({
      text: joined.charAt(0).toUpperCase() + joined.slice(1),
      spans: own.map((p) => p.span),
      leadIn: leadIn.map((p) => p.span),
      line: lineOf(first.span.start),
      endLine: lineOf(last.span.end - 1),
      heading: block.heading,
    });
  };

  // The sentence that opens a block's list ("… only if:"), when it has a list.
  const openerOf = (index: number): Piece | undefined => {
    const last = pieces[index]?.at(-1);
    return listOf(index).length > 0 && last?.text.endsWith(':') ? last : undefined;
  };
  // A lead-in over a list of short items ("Collect: first name, last name, date of birth") is
  // one rule; the items give nothing of their own.
  const shortLists = new Map<number, readonly number[]>();
  const inShortList = new Set<number>();
  blocks.forEach((_, index) => {
    const opener = openerOf(index);
    const list = listOf(index);
    if (!opener || isDataDescription(opener.text) || !isShortList(list, blocks, pieces, children))
      return;
    shortLists.set(index, list);
    for (const i of list) inShortList.add(i);
  });

  blocks.forEach((block, index) => {
    if (inShortList.has(index)) return;
    const own = pieces[index] ?? [];
    const leadIn = leadInOf(index);
    if (leadIn.some((p) => isDataDescription(p.text))) return;
    const opener = openerOf(index);
    const sentences = opener ? own.slice(0, -1) : own;
    const first = own[0]?.text ?? '';

    if (block.kind === 'paragraph' || opener) {
      for (const piece of sentences) {
        if (isRuleSentence(piece.text)) emit(block, leadIn, [piece]);
      }
    } else if (!isFieldItem(first, leadIn.length > 0) && !isDataDescription(first)) {
      // An item is a rule as it stands; of several sentences, each but examples and data is one.
      if (own.length <= 1) emit(block, leadIn, own);
      else
        for (const piece of own) {
          if (!isDataDescription(piece.text) && wordCount(piece.text) >= 3)
            emit(block, leadIn, [piece]);
        }
    }

    const list = shortLists.get(index);
    if (opener && list) {
      const items = list.flatMap((i) => pieces[i] ?? []);
      const text = items.map((p) => p.text.replace(/[\s;,.]+$/, '')).join(', ');
      emit(block, [...leadIn, opener], items, text);
    }
  });
  return units;
}

function isRuleSentence(text: string): boolean {
  return isObligation(text) && !isDataDescription(text) && wordCount(text) >= 3;
}

function isShortList(
  list: readonly number[],
  blocks: readonly Block[],
  pieces: readonly (readonly Piece[])[],
  children: readonly (readonly number[])[],
): boolean {
  return (
    list.length >= 2 &&
    list.every(
      (i) =>
        blocks[i]?.kind === 'item' &&
        (children[i]?.length ?? 0) === 0 &&
        wordCount((pieces[i] ?? []).map((p) => p.text).join(' ')) <= SHORT_ITEM_WORDS,
    )
  );
}

function wordCount(text: string): number {
  return text.match(/[A-Za-z0-9]+/g)?.length ?? 0;
}

/** The 1-based line of an offset, by binary search over the line starts. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}
