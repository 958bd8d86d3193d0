import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText, splitSentences } from './sentences.ts';

const split = (text: string) =>
  splitSentences(text, { start: 0, end: text.length }).map((s) => text.slice(s.start, s.end));

describe('splitSentences', () => {
  it('splits at full stops, but not after abbreviations, inside numbers or inside quotes', () => {
    expect(
      split(
        'Check the id, e.g. W123 first. Refunds of $2.50 are paid. Say "PLEASE HOLD. THANKS." to them! Done?',
      ),
    ).toEqual([
      'Check the id, e.g. W123 first.',
      'Refunds of $2.50 are paid.',
      'Say "PLEASE HOLD. THANKS." to them!',
      'Done?',
    ]);
  });

  it('cuts a sentence that holds two rules, and leaves lists of verbs alone', () => {
    expect(
      split(
        'An order can be cancelled only if it is pending, and you should check its status first.',
      ),
    ).toEqual([
      'An order can be cancelled only if it is pending',
      'you should check its status first.',
    ]);
    expect(split('Make one call at a time, and if you call, you must not reply.')).toEqual([
      'Make one call at a time',
      'if you call, you must not reply.',
    ]);
    expect(split('Ask for the reason, and then check the dates in the booking itself.')).toEqual([
      'Ask for the reason',
      'check the dates in the booking itself.',
    ]);
    expect(split('Bags cannot be removed; no refund is given for bags not taken.')).toEqual([
      'Bags cannot be removed',
      'no refund is given for bags not taken.',
    ]);
    expect(split('Before any change (cancel, modify, and exchange), confirm it.')).toEqual([
      'Before any change (cancel, modify, and exchange), confirm it.',
    ]);
  });

  it('gives pieces in order, inside the span, trimmed, losing only marks and joining words', () => {
    const word = fc.constantFrom(
      'you', 'must', 'never', 'check', 'the', 'order', 'and', 'but', 'e.g.', 'Yes', 'A.', 'B!',
      '"Hold.', 'on."', "'x.", 'it', 'should', 'if', ';', ',', '.', '2.5', 'then', 'so',
    ); // prettier-ignore
    const gap = fc.constantFrom(' ', '  ', '\n', '\n  ', ', ', '. ', '; ');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { maxLength: 40 }), fc.nat(5), (parts, cut) => {
        const text = parts.map(([w, g]) => w + g).join('');
        const span = { start: Math.min(cut, text.length), end: text.length };
        const pieces = splitSentences(text, span);
        let at = span.start;
        for (const piece of pieces) {
          expect(piece.start).toBeGreaterThanOrEqual(at);
          expect(piece.end).toBeGreaterThan(piece.start);
          expect(piece.end).toBeLessThanOrEqual(span.end);
          const body = text.slice(piece.start, piece.end);
          expect(body).toBe(body.trim());
          expect(text.slice(at, piece.start)).toMatch(LOST);
          at = piece.end;
        }
        expect(text.slice(at, span.end)).toMatch(/^\s*$/);
      }),
      { numRuns: 2000 },
    );
  });
});

// Between two pieces only white space, a comma or semicolon and a joining word may be lost.
const LOST = /^[\s,;]*(?:(?:and|but|so)\s+(?:then\s+)?)?$/i;

describe('cleanText', () => {
  it('drops emphasis, code marks, links and quote marks, and collapses white space', () => {
    expect(cleanText('**Never** refund\n  `gift` [cards](http://x)\n> twice')).toBe(
      'Never refund gift cards twice',
    );
  });
});
