import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fencedBlock, inlineText, quoteBlock } from './markdownText.ts';
import { hostileText, lines, markdownProblems, readQuote, unescape } from '../testing/markdown.ts';

/** The breaks quoteBlock and inlineText read: Markdown's, and the Unicode line separators. */
const BREAK = /\r\n|\r|\n|\u2028|\u2029/g;

describe('quoteBlock', () => {
  it('escapes what would render as markup', () => {
    expect(quoteBlock('# Hi <b>\n[x](http://e.com) ![](i.png)\n\n- a\n1. b')).toBe(
      [
        '> \\# Hi \\<b\\>',
        '> \\[x\\](http\\://e.com) !\\[\\](i.png)',
        '>',
        '> \\- a',
        '> 1\\. b',
      ].join('\n'),
    );
    expect(quoteBlock('mail me@x.org or www.x.org & `run`')).toBe(
      '> mail me\\@x.org or www\\.x.org \\& \\`run\\`',
    );
  });

  it('keeps any text inside its quote, reading back as written, with nothing unescaped', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const quote = quoteBlock(text);
        const quoted = lines(quote);
        expect(quoted.every((l) => l.startsWith('>'))).toBe(true);
        expect(readQuote(quoted)).toBe(text.replace(BREAK, '\n'));
        expect(markdownProblems(quote)).toEqual([]);
      }),
    );
  });
});

describe('inlineText', () => {
  it('gives one line that starts no block and reads back as written', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const inline = inlineText(text);
        expect(lines(inline)).toHaveLength(1);
        expect(inline).not.toMatch(/^\s*([-+*=#>]|\d+[.)])/);
        expect(unescape(inline)).toBe(text.replace(BREAK, ' ').trim());
        expect(markdownProblems(`- **Goal:** ${inline}`)).toEqual([]);
      }),
    );
  });
});

describe('fencedBlock', () => {
  it('uses a fence longer than any run of backticks inside', () => {
    expect(fencedBlock('a ``` b ```` c', 'json')).toBe('`````json\na ``` b ```` c\n`````');
    expect(fencedBlock('{}')).toBe('```\n{}\n```');
  });

  it('keeps any text inside, closed where it ends and not before', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const block = fencedBlock(text, 'json');
        expect(markdownProblems(block)).toEqual([]);
        // Closed only by its own last line: the text and an unfenced line after it.
        expect(markdownProblems(`${block}\n<b>`)).toEqual(['unescaped < in: <b>']);
        expect(block.slice(block.indexOf('\n') + 1, block.lastIndexOf('\n'))).toBe(text);
      }),
    );
  });
});
