import fc from 'fast-check';

/*
 * For the tests of Markdown made from untrusted text: text built to break a document, a reader
 * of its fences and escapes, and what a line means once its escapes are read.
 */

/** Pieces that would change a Markdown document if they were not escaped. */
const NASTY = [
  '```',
  '````',
  '~~~',
  '`x`',
  '<script>alert(1)</script>',
  '<b>',
  '<http://evil.example>',
  '[x](http://evil.example)',
  '![](http://evil.example/i.png)',
  '[a]: http://evil.example',
  '[^1]',
  'www.evil.example',
  'https://evil.example',
  'me@evil.example',
  '&lt;b&gt;',
  '# ',
  '## Heading',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '2) ',
  '> ',
  '---',
  '===',
  '    ',
  '\t',
  '| a | b |',
  '\\',
  '\\[',
  '*',
  '_',
  '$x$',
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  '\u2028',
];

/** Text a model or a file might write to break a Markdown document, and any text at all. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ unit: 'binary' })), { maxLength: 8 })
  .map((pieces) => pieces.join(''));

/** Markdown's line endings (CommonMark reads a lone carriage return as one). */
export const lines = (text: string): string[] => text.split(/\r\n|\r|\n/);

/** The character at `i` is not backslash-escaped (an even run of backslashes before it). */
function unescapedAt(line: string, i: number): boolean {
  let slashes = 0;
  for (let j = i - 1; j >= 0 && line[j] === '\\'; j--) slashes++;
  return slashes % 2 === 0;
}

/** What makes HTML, a link, an image, an autolink or code outside a fence, when not escaped. */
const RISKY = /<|\[|\]|`|~~~|:\/\/|www\.|@|&/gi;

/**
 * What is wrong with a document built from untrusted text: markup outside fences that is not
 * escaped (`<`, `[`, `]`, backticks, `://`, `www.`, `@`, `&`), a line that would underline the one
 * before it into a heading, and a fence left open at the end. Fenced lines are not looked at.
 */
export function markdownProblems(doc: string): string[] {
  const problems: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of lines(doc)) {
    if (fence) {
      const close = /^ {0,3}(`+|~+)\s*$/.exec(line)?.[1];
      if (close?.[0] === fence.char && close.length >= fence.length) fence = null;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})([^`]*)$/.exec(line)?.[1];
    if (open !== undefined) {
      fence = { char: open[0] ?? '`', length: open.length };
      continue;
    }
    // A line of dashes or equals signs makes the line before it a heading (or is a rule).
    if (/^\s*(-+|=+)\s*$/.test(line)) problems.push(`a heading underline or rule: ${line}`);
    for (const match of line.matchAll(RISKY)) {
      if (unescapedAt(line, match.index)) problems.push(`unescaped ${match[0]} in: ${line}`);
    }
  }
  if (fence) problems.push('a fence is never closed');
  return problems;
}

/** A line of escaped text as it reads once rendered: each backslash escape gives its character. */
export const unescape = (line: string): string => line.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** The text of a quote's lines, read back: `>` and one space taken off, escapes read. */
export function readQuote(quoteLines: readonly string[]): string {
  return quoteLines.map((l) => unescape(l.replace(/^> ?/, ''))).join('\n');
}
