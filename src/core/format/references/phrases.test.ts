import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ticketDesk } from '../../testing/ticketDesk.ts';
import { parseProject } from '../parseProject.ts';
import { regexLookalike } from './phrases.ts';

const withPhrases = (mustSay: string, mustNotSay = '[]') =>
  ticketDesk({
    'scenarios.yaml': `scenarios:
  - id: cancel-delivered
    policies: [before-show]
    persona: A customer.
    goal: Cancel order o2.
    expected:
      must_say: ${mustSay}
      must_not_say: ${mustNotSay}
`,
  });

const warnings = (project: ReturnType<typeof ticketDesk>) =>
  parseProject(project).diagnostics.filter((d) => d.code === 'literal-phrase');

describe('regexLookalike', () => {
  it.each([
    ['refund of \\d+ dollars', 'a backslash escape'],
    ['cancel.*order', '".*" or ".+"'],
    ['order [0-9]', 'a character class "[…]"'],
    ['^Hello', 'a "^" anchor'],
    ['goodbye$', 'a "$" anchor'],
    ['yes|no', 'an alternation "|" or a "(?…)" group'],
    ['(?:sorry)', 'an alternation "|" or a "(?…)" group'],
    ['code \\w{6}', 'a backslash escape'],
    ['A{3}', 'a repeat count "{n}"'],
  ])('sees %s as a pattern (%s)', (phrase, sign) => {
    expect(regexLookalike(phrase)).toBe(sign);
  });

  it.each([
    'I cannot cancel that order.',
    'It costs $50.',
    'That is 50$',
    'Is there anything else?',
    'Your seat (12A) is confirmed.',
    'Thank you, goodbye!',
    '/cancel.*order/',
  ])('leaves %s alone', (phrase) => {
    expect(regexLookalike(phrase)).toBeUndefined();
  });

  it('never warns about a phrase written between slashes, nor about plain words', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (inner) => {
        expect(regexLookalike(`/${inner}/`)).toBeUndefined();
      }),
    );
    const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('', '.', '!', '?', ','),
        (words, end) => {
          expect(regexLookalike(words.join(' ') + end)).toBeUndefined();
        },
      ),
    );
  });
});

describe('check warns about must_say phrases that look like patterns', () => {
  it('warns at the phrase, in either form, and says how to write a pattern', () => {
    const found = warnings(
      withPhrases(
        "['refund of \\d+', '/refund of \\d+/', plain words]",
        "[{ phrase: 'INT-.*', policy: before-show }]",
      ),
    );
    expect(found.map((d) => [d.line, d.severity])).toEqual([
      [7, 'warning'],
      [8, 'warning'],
    ]);
    expect(found[0]?.message).toBe(
      'This phrase has a backslash escape, so it looks like a regular expression, but it is matched as literal text (case-insensitive). To match a pattern, write it between slashes: "/refund of \\d+/".',
    );
    expect(found[1]?.message).toContain('"/INT-.*/"');
  });

  it('says nothing about literal phrases', () => {
    expect(warnings(withPhrases("['I cannot cancel', 'It costs $50.']"))).toEqual([]);
  });
});

describe('check holds a phrase written between slashes to what a check pattern is', () => {
  const about = (project: ReturnType<typeof ticketDesk>) =>
    parseProject(project)
      .diagnostics.filter((d) => d.code.endsWith('-pattern'))
      .map((d) => [d.code, d.line, d.severity]);

  it('an invalid pattern is an error, one the linear matcher cannot run is too', () => {
    expect(about(withPhrases("['/refund (of/', '/(a)\\1/']"))).toEqual([
      ['bad-pattern', 7, 'error'],
      ['unsupported-pattern', 7, 'error'],
    ]);
  });

  it('a counted repeat that may pass the matcher’s budget on an ordinary answer is warned about', () => {
    const found = parseProject(
      withPhrases('[]', "[{ phrase: '/(ab){1,1000}c/', policy: before-show }]"),
    ).diagnostics.filter((d) => d.code === 'costly-pattern');
    expect(found.map((d) => [d.line, d.severity])).toEqual([[8, 'warning']]);
    expect(found[0]?.message).toContain('repeats up to 1,000 times');
    expect(found[0]?.message).toContain('the phrase is then an error');
  });

  it('says nothing of an ordinary pattern', () => {
    expect(about(withPhrases("['/refund of \\d+ dollars/', '/cancel.*order/']"))).toEqual([]);
  });
});
