/*
 * Untrusted text (what a model or a file wrote) put into Markdown so that it reads as itself
 * and can never change the document around it: no heading, list, HTML, link, image or autolink
 * of its own, and no way out of its quote or its fence.
 */

/** A line ending as Markdown reads one (and the Unicode separators, which some renderers do). */
const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029/;

/**
 * Characters with a meaning anywhere in a line: escapes, code, emphasis, links and images
 * (`[`, `]`), HTML and quotes (`<`, `>`), tables, strikethrough, entities, headings and issue
 * references (`#`), maths (`$`) and mentions and email autolinks (`@`).
 */
const ANYWHERE = /[\\`*_[\]<>|~&#$@]/g;

/** Escapes one line of untrusted text so that Markdown shows every character as written. */
function escapeLine(line: string): string {
  return (
    line
      .replace(ANYWHERE, '\\$&')
      // Bare-URL autolinks (GFM): a scheme's `://`, and `www.`.
      .replace(/:\/\//g, '\\://')
      .replace(/(www)\./gi, '$1\\.')
      // What starts a block at the start of a line: a bullet, a setext underline, an ordered item.
      .replace(/^(\s*)([-+=])/, '$1\\$2')
      .replace(/^(\s*\d+)([.)])/, '$1\\$2')
  );
}

/**
 * Untrusted text as one line of Markdown inline text: line breaks become spaces, whitespace at
 * either end goes (at the start of a list item it would make indented code), the rest escaped.
 */
export function inlineText(text: string): string {
  return escapeLine(text.split(LINE_BREAK).join(' ').trim());
}

/**
 * Untrusted text as a Markdown blockquote: every line of it prefixed with `>` and escaped, so it
 * stays inside the quote and renders as written. Empty text gives an empty quote line.
 */
export function quoteBlock(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((line) => (line === '' ? '>' : `> ${escapeLine(line)}`))
    .join('\n');
}

/**
 * Text in a fenced code block whose fence is longer than any run of backticks inside it, so
 * nothing inside can close it. `info` names the language (`json`).
 */
export function fencedBlock(text: string, info = ''): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}
