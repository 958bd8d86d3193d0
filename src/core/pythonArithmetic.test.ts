import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from './cel.ts';
import { celDecimalText } from './celFunctions.ts';
import { pythonArithmetic } from './pythonArithmetic.ts';

/** Python 3's own answers (testdata/python-arithmetic.json, made by python3 once). */
const CASES = (
  JSON.parse(
    readFileSync(new URL('./testdata/python-arithmetic.json', import.meta.url), 'utf8'),
  ) as { cases: [string, 'int' | 'float' | 'error', string][] }
).cases;

const asPython = (value: bigint | number): [string, string] =>
  typeof value === 'bigint' ? ['int', value.toString()] : ['float', celDecimalText(value)];

describe('arithmetic(): Python’s eval of arithmetic text', () => {
  it(`gives what Python gives, type and digits, for ${CASES.length} expressions`, () => {
    const wrong = CASES.flatMap(([text, type, written]) => {
      let got: [string, string];
      try {
        got = asPython(pythonArithmetic(text));
      } catch {
        got = ['error', ''];
      }
      const want: [string, string] = [type, type === 'error' ? '' : written];
      return got[0] === want[0] && got[1] === want[1] ? [] : [{ text, want, got }];
    });
    expect(wrong).toEqual([]);
  });

  it('refuses what is not arithmetic, and nesting or powers past its bounds, with a message', () => {
    for (const text of ['abc', '__import__("os")', '1 +', '(1', '1 2', "'a' * 3", '1 ** 9999999'])
      expect(() => pythonArithmetic(text)).toThrow(/^arithmetic\(\): /);
    expect(() => pythonArithmetic(`${'('.repeat(3000)}1${')'.repeat(3000)}`)).toThrow(
      /nested more than/,
    );
    expect(() => pythonArithmetic('-'.repeat(3000) + '1')).toThrow(/nested more than/);
    expect(() => pythonArithmetic(42)).toThrow(/takes text/);
  });

  it('is a CEL function: the imported calculate tool’s body', () => {
    const compiled = compileCel('decimalText(round(double(arithmetic(args.e)), 2))');
    if (isCelProblem(compiled)) throw new Error(compiled.message);
    expect(compiled.run({ args: { e: '3131.1 + 4777.75 + 367.38' } })).toBe('8276.23');
  });

  it('ends on any text, with a number or an Error (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9+\-*/(). %e]{0,60}$/), (text) => {
        try {
          const value = pythonArithmetic(text);
          expect(['bigint', 'number']).toContain(typeof value);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
        }
      }),
    );
  });
});
