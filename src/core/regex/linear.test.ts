import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LinearRegex, PatternFlags } from './linear.ts';
import {
  MATCH_STEP_BUDGET,
  MAX_PROGRAM,
  PatternTooCostly,
  compilePattern,
  isPatternProblem,
} from './linear.ts';

function compiled(source: string, flags: PatternFlags = 'iu'): LinearRegex {
  const result = compilePattern(source, flags);
  if (isPatternProblem(result)) throw new Error(result.message);
  return result;
}

function jsMatch(source: string, flags: PatternFlags, text: string) {
  const m = new RegExp(source, flags).exec(text);
  return m ? { index: m.index, text: m[0] } : undefined;
}

const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** Patterns over a small alphabet, built from every construct the matcher runs. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ alt: string; seq: string; term: string }>(
  (tie) => ({
    alt: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('seq'),
      fc.tuple(tie('seq'), tie('seq')).map(([a, b]) => `${a}|${b}`),
    ),
    seq: fc.array(tie('term'), { minLength: 0, maxLength: 4 }).map((terms) => terms.join('')),
    term: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('a', 'b', 'A', 'ſ', 'k', '.', '[ab]', '[^a]', '\\w', '\\W', '\\s', '\\d'),
      fc.constantFrom('^', '$', '\\b', '\\B', '😀', '[a-cK]', '\\p{Lu}'),
      fc
        .tuple(
          tie('alt'),
          fc.constantFrom('(', '(?:', '(?<n>'),
          fc.constantFrom('', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??', '{1,2}?'),
        )
        // A named group may appear once only, so it is never repeated.
        .map(([inner, open, q]) => `${open === '(?<n>' ? '(' : open}${inner})${q}`),
    ),
  }),
).alt;

const text = fc
  .array(fc.constantFrom('a', 'b', 'A', 'B', 'S', 's', 'ſ', 'K', 'K', ' ', '1', '😀', '\n', '!'), {
    maxLength: 12,
  })
  .map((chars) => chars.join(''));

describe('the linear matcher', () => {
  it('finds what RegExp.exec finds, with flags iu and u, on patterns both run', () => {
    fc.assert(
      fc.property(pattern, text, fc.constantFrom<PatternFlags>('iu', 'u'), (source, t, flags) => {
        const expected = jsMatch(source, flags, t);
        // V8 tries an empty match between the halves of a surrogate pair (\B inside 😀); a
        // character is one code point here, so such a place is never tried.
        fc.pre(!(expected && isLowSurrogate(t.charCodeAt(expected.index))));
        expect(compiled(source, flags).exec(t)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the match RegExp finds in longer prose', () => {
    const prose =
      'I have processed your REFUND of $120.50 for order #W123 — anything else? Thanks.';
    for (const source of [
      'refund',
      '\\$\\d+(?:\\.\\d{2})?',
      '#W\\d+',
      '\\bthanks\\b',
      'any(thing|one)\\s+else\\?',
      '[A-Z]{2,}',
      'or(?:der)?\\s*#',
      'x|y|z',
    ])
      expect(compiled(source).exec(prose)).toEqual(jsMatch(source, 'iu', prose));
  });

  it('keeps case folding and code points: ſ is s, K (Kelvin) is k, an emoji is one character', () => {
    expect(compiled('s+').exec('ſSs')?.text).toBe('ſSs');
    expect(compiled('^k$').test('K')).toBe(true);
    expect(compiled('^.$').test('😀')).toBe(true);
    expect(compiled('^.$', 'u').test('😀')).toBe(true);
    expect(compiled('abc', 'u').test('ABC')).toBe(false);
  });

  it('answers a catastrophic pattern in one pass: (a+)+$ against 5,000 a and a !', () => {
    const hostile = `${'a'.repeat(5000)}!`;
    expect(compiled('(a+)+$').test(hostile)).toBe(false);
    expect(compiled('(a|a)*b').test(hostile)).toBe(false);
    expect(compiled('(a+)+!').exec(hostile)?.index).toBe(0);
  });

  it('refuses backreferences and lookaround by name and position', () => {
    const cases: [string, string, number][] = [
      ['(a)\\1', 'A backreference "\\1"', 3],
      ['(?<x>a)\\k<x>', 'A backreference "\\k<x>"', 7],
      ['a(?=b)', 'A lookahead "(?=…)"', 1],
      ['a(?!b)', 'A negative lookahead "(?!…)"', 1],
      ['(?<=a)b', 'A lookbehind "(?<=…)"', 0],
      ['(?<!a)b', 'A negative lookbehind "(?<!…)"', 0],
      ['a{2000}', 'A repeat count over 1000', 0],
    ];
    for (const [source, construct, offset] of cases) {
      const problem = compilePattern(source, 'iu');
      expect(isPatternProblem(problem) && problem).toMatchObject({ construct, offset });
      expect(isPatternProblem(problem) && problem.message).toContain('not supported');
    }
  });

  it('refuses a pattern whose repeats multiply past the program limit', () => {
    const problem = compilePattern('(?:(?:a{1,1000}){1,1000})', 'iu');
    expect(isPatternProblem(problem) && problem.message).toContain(`over ${MAX_PROGRAM} steps`);
  });

  it('gives JavaScript’s own message for a pattern that is not valid', () => {
    const problem = compilePattern('(unclosed', 'iu');
    expect(isPatternProblem(problem) && problem.message).toBe(
      'Invalid regular expression: /(unclosed/iu: Unterminated group',
    );
  });

  it('stops a match past its step budget with a message naming the pattern, the text and the limit', () => {
    const counted = compiled('a{1,1000}b');
    const text = 'a'.repeat(20_000);
    expect(() => counted.test(text)).toThrow(PatternTooCostly);
    expect(() => counted.exec(text)).toThrow(
      `The pattern /a{1,1000}b/ was too costly to match on this text of 20,000 characters (over ${MATCH_STEP_BUDGET.toLocaleString('en-US')} steps)`,
    );
    // The same pattern on a short text is an ordinary answer.
    expect(counted.exec('xaaab')).toEqual({ index: 1, text: 'aaab' });
  });

  it('counts steps the same way every time, and a budget just under the count stops it', () => {
    fc.assert(
      fc.property(pattern, text, (source, t) => {
        const regex = compiled(source);
        const { matched, steps } = regex.counted(t, MATCH_STEP_BUDGET);
        expect(matched).toBe(regex.test(t));
        expect(regex.counted(t, MATCH_STEP_BUDGET)).toEqual({ matched, steps });
        expect(regex.counted(t, steps)).toEqual({ matched, steps });
        if (steps > 0) expect(() => regex.counted(t, steps - 1)).toThrow(PatternTooCostly);
      }),
      { numRuns: 500 },
    );
  });
});
