import { IMPERATIVE_VERBS } from './cues.ts';

/** A stretch of the prompt, as offsets: `text.slice(start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

// Words that end in a full stop without ending the sentence.
const ABBREVIATION =
  /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|approx|incl|mr|mrs|ms|dr|st|no|a\.m|p\.m|u\.s|[a-z])\.$/i;
// A sentence ends at . ! or ? (closing quotes and brackets included), before white space and a
// capital, a digit, a quote or a Markdown mark, or at the end of the text.
const BOUNDARY = /[.!?]+["'’”)\]*_]*(?=\s+["'‘“(*_`]*[A-Z0-9]|\s*$)/g;
// "…; …" and ", and then check …": a second command. Its first words must run on to at least
// four words before the next mark, so a list of verbs ("cancel, modify, and exchange") stays.
const COMMAND_CLAUSE = new RegExp(
  String.raw`;\s+(?=\S+(?:\s+\S+){2})|,\s+and\s+(?:then\s+)?(?=(?:${[...IMPERATIVE_VERBS].join('|')})\b(?:\s+[^\s,;.:)]+){3})`,
  'gi',
);
const SUBJECT = String.raw`(?:you|the agent|the assistant|the user|the customer|the traveller|the traveler|they|it|we|this|that)`;
const MODAL = String.raw`(?:must|should|shall|need|needs|have to|has to|cannot|can(?:'|’)t|can|may|will|do not|don't|does not|never|always|only)`;
// ", and you must ...", "; but if they ask, the agent should ...": a second rule in one sentence.
const CLAUSE = new RegExp(
  String.raw`(?:,\s+(?:and|but|so)\s+|\s+(?:and|but)\s+(?=(?:if|when|once|unless)\b))(?=(?:(?:and|but|so)\s+)?(?:(?:if|when|once|before|after|unless)\b[^,;]{0,80},\s*)?${SUBJECT}\s+(?:\w+\s+){0,2}?${MODAL}\b)`,
  'gi',
);

/**
 * Splits `text.slice(span.start, span.end)` into sentences, and a sentence that holds two rules
 * ("…, and you should …", "…; …") into clauses. Every piece is a span of `text` with no white
 * space at either end; together they cover every word of the input span but the joining words
 * ("and", "but", "so", "then") and marks between two clauses.
 */
export function splitSentences(text: string, span: Span): Span[] {
  const pieces: Span[] = [];
  const body = text.slice(span.start, span.end);
  let from = 0;
  const quotes = quotedRanges(body);
  for (const match of body.matchAll(BOUNDARY)) {
    const end = match.index + match[0].length;
    if (quotes.some((q) => match.index > q.start && match.index < q.end - 1)) continue;
    if (ABBREVIATION.test(body.slice(Math.max(0, match.index - 6), match.index + 1))) continue;
    pieces.push(...splitClauses(text, span.start + from, span.start + end));
    from = end;
  }
  pieces.push(...splitClauses(text, span.start + from, span.end));
  return pieces.flatMap((piece) => trimSpan(text, piece) ?? []);
}

// Quoted words ("say 'PLEASE HOLD. WE ARE HERE.' to the user") are never cut. A quote opens
// after a space or bracket and closes before one, so "guest's" opens nothing.
const QUOTED = /(?<=^|[\s(:])(?:"[^"\n]*"|“[^”\n]*”|'[^'\n]*'(?=[\s.,;:!?)]|$))/g;

function quotedRanges(text: string): Span[] {
  return [...text.matchAll(QUOTED)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function splitClauses(text: string, start: number, end: number): Span[] {
  const sentence = text.slice(start, end);
  const pieces: Span[] = [];
  let from = 0;
  const matches = [...sentence.matchAll(CLAUSE), ...sentence.matchAll(COMMAND_CLAUSE)].sort(
    (a, b) => a.index - b.index,
  );
  for (const match of matches) {
    if (match.index < from) continue;
    const before = sentence.slice(from, match.index);
    // A clause too short to stand alone ("Yes; you must…") stays with the rest.
    if (wordCount(before) < 3) continue;
    pieces.push({ start: start + from, end: start + match.index });
    from = match.index + match[0].length;
  }
  pieces.push({ start: start + from, end });
  return pieces;
}

function trimSpan(text: string, span: Span): Span | undefined {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start] ?? '')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  return start < end ? { start, end } : undefined;
}

function wordCount(text: string): number {
  return text.match(/[A-Za-z0-9]+/g)?.length ?? 0;
}

/**
 * The readable text of a piece of Markdown: emphasis, code marks, links and block-quote marks
 * removed, white space collapsed.
 */
export function cleanText(markdown: string): string {
  return markdown
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
