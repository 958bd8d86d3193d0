import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCel, compileCel, isCelProblem } from './cel.ts';
import { readFileSync } from 'node:fs';
import { celDecimalText, celFixed, celRound } from './celFunctions.ts';

function run(source: string, variables: Record<string, unknown> = {}): unknown {
  const compiled = compileCel(source);
  if (isCelProblem(compiled)) throw new Error(compiled.message);
  return compiled.run(variables);
}

describe('sum, min and max in CEL', () => {
  it('sum a list of prices and of integers; an empty list sums to 0.0', () => {
    const args = { items: [{ price: 1.5 }, { price: 2 }] };
    expect(run('sum(args.items.map(i, i.price))', { args })).toBe(3.5);
    expect(run('sum([1, 2, 3])')).toBe(6n);
    expect(run('sum([1, 2, 3]) == 6')).toBe(true);
    expect(run('sum(args.items.map(i, i.price)) > 3.0', { args })).toBe(true);
    expect(run('sum([])')).toBe(0);
    expect(run('min([3, 1, 2])')).toBe(1n);
    expect(run('max(args.items.map(i, i.price))', { args })).toBe(2);
  });

  it('says which item is not a number, and that an empty list has no min', () => {
    expect(() => run('sum(xs)', { xs: [1, 'a'] })).toThrow(
      'sum() takes a list of numbers; item 2 is "a".',
    );
    expect(() => run('max([])')).toThrow('max() of an empty list has no value.');
  });

  it('are known to the type check wherever conditions are written', () => {
    expect(checkCel('sum(args.items.map(i, i.price)) > 100.0', 'guard')).toBeUndefined();
    expect(checkCel('min(db.orders.map(o, o.total)) < 5.0', 'assertion')).toBeUndefined();
    expect(checkCel('max(args.xs) + 1', 'effect')).toBeUndefined();
    expect(checkCel('sum(1)', 'guard')?.message).toMatch(/no matching overload/);
  });

  it('sum of integers is their exact sum; of doubles, their sum in order', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n })), (xs) => {
        expect(run('sum(xs)', { xs })).toBe(xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0n));
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true })), (xs) => {
        expect(run('sum(xs)', { xs })).toBe(xs.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it('min and max are the smallest and largest item of any non-empty list', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1 }), (xs) => {
        expect(run('min(xs)', { xs })).toBe(Math.min(...xs));
        expect(run('max(xs)', { xs })).toBe(Math.max(...xs));
        const big = xs.map(BigInt);
        expect(run('min(xs)', { xs: big })).toBe(BigInt(Math.min(...xs)));
        expect(run('max(xs)', { xs: big })).toBe(BigInt(Math.max(...xs)));
      }),
    );
  });
});

describe('the functions that build changed copies and round as Python does', () => {
  it('put, merge and setAt return changed copies and leave the original alone', () => {
    const methods = { v1: { source: 'voucher', balance: 10 } };
    expect(run('put(m, "v1", merge(m["v1"], {"balance": 12.5}))', { m: methods })).toEqual({
      v1: { source: 'voucher', balance: 12.5 },
    });
    expect(methods.v1.balance).toBe(10);
    const lines = [{ sku: 'A' }, { sku: 'B' }];
    expect(run('setAt(l, 1, {"sku": "C"})', { l: lines })).toEqual([{ sku: 'A' }, { sku: 'C' }]);
    expect(lines[1]).toEqual({ sku: 'B' });
    expect(() => run('setAt(l, 2, 1)', { l: lines })).toThrow(/index 2 is outside a list of 2/);
    expect(() => run('put([1], "a", 1)')).toThrow(/put\(\) takes a map/);
  });

  it('round rounds the exact value and breaks exact ties to even, as Python does', () => {
    // Python: round(2.675, 2) == 2.67 (2.675 is 2.67499…), round(0.125, 2) == 0.12 (a tie).
    const cases: Array<[number, number]> = [
      [2.675, 2.67],
      [0.125, 0.12],
      [0.375, 0.38],
      [-2.675, -2.67],
      [1.005, 1],
      [123.455, 123.45],
      [0.1 + 0.2, 0.3],
      [17, 17],
    ];
    for (const [value, rounded] of cases) expect(celRound(value, 2n)).toBe(rounded);
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x) => {
        const r = celRound(x, 2n) as number;
        expect(Math.abs(r - x)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(Number.isInteger(Math.round(r * 100))).toBe(true);
      }),
    );
  });

  it('abs, sorted and range', () => {
    expect(run('abs(-1.75)')).toBe(1.75);
    expect(run('sorted(["b", "a", "B"])')).toEqual(['B', 'a', 'b']);
    expect(run('sorted([3.0, 1.5])')).toEqual([1.5, 3]);
    expect(run('range(3)')).toEqual([0n, 1n, 2n]);
    expect(() => run('sorted(l)', { l: ['a', 1] })).toThrow(/sorted\(\) takes a list of numbers/);
  });
});

describe('numbers written as Python writes them', () => {
  // Made by Python 3 (`str(x)`, `format(x, '.Nf')`) for chosen and random values.
  const python = JSON.parse(
    readFileSync(new URL('./testdata/python-floats.json', import.meta.url), 'utf8'),
  ) as { str: Array<[number, string]>; fixed: Array<[number, number, string]> };

  it('decimalText writes a float as str() does', () => {
    for (const [x, text] of python.str) expect(celDecimalText(x), String(x)).toBe(text);
    expect(run('decimalText(2.0) + " GB"')).toBe('2.0 GB');
    expect(run('decimalText(3)')).toBe('3');
  });

  it('fixed writes a float as a .Nf format does, a tie to even', () => {
    for (const [x, d, text] of python.fixed)
      expect(celFixed(x, BigInt(d)), `${x}:.${d}f`).toBe(text);
    expect(run('fixed(2.675, 2)')).toBe('2.67');
  });

  it('decimalText reads back as the same number (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = celDecimalText(x);
        expect(Number(text)).toBe(x);
        expect(text).toMatch(/^-?(\d+\.\d+|\d(\.\d+)?e[+-]\d{2,3})$/);
      }),
    );
  });
});

describe('slices and sorting by a key, as Python does them', () => {
  const run = (source: string, vars: Record<string, unknown> = {}) => {
    const compiled = compileCel(source);
    if (isCelProblem(compiled)) throw new Error(compiled.message);
    return compiled.run(vars);
  };

  it('slices lists and text with Python’s bounds: left out, negative, past the end', () => {
    // Python: xs[:2], xs[-2:], xs[1:-1], xs[5:], xs[:-9], s[1:3]
    const xs = [1n, 2n, 3n, 4n];
    expect(run('slice(xs, null, 2)', { xs })).toEqual([1n, 2n]);
    expect(run('slice(xs, -2, null)', { xs })).toEqual([3n, 4n]);
    expect(run('slice(xs, 1, -1)', { xs })).toEqual([2n, 3n]);
    expect(run('slice(xs, 5, null)', { xs })).toEqual([]);
    expect(run('slice(xs, null, -9)', { xs })).toEqual([]);
    expect(run('slice("héllo", 1, 3)')).toBe('él');
    expect(() => run('slice(xs, 0.5, null)', { xs })).toThrow(/not a whole number/);
  });

  it('sorts by a key, stably, reversed or not, and refuses keys Python cannot compare', () => {
    const pairs = [
      ['b', 'first b'],
      ['a', 'a'],
      ['b', 'second b'],
      ['c', 'c'],
    ];
    // Python: sorted(..., key=k) and sorted(..., key=k, reverse=True) keep equal keys in order.
    expect(run('sortedBy(p, false)', { p: pairs })).toEqual(['a', 'first b', 'second b', 'c']);
    expect(run('sortedBy(p, true)', { p: pairs })).toEqual(['c', 'first b', 'second b', 'a']);
    expect(
      run('sortedBy(p, false)', {
        p: [
          [2.5, 'x'],
          [1n, 'y'],
          [2n, 'z'],
        ],
      }),
    ).toEqual(['y', 'z', 'x']);
    expect(() =>
      run('sortedBy(p, false)', {
        p: [
          [1n, 'x'],
          ['a', 'y'],
        ],
      }),
    ).toThrow(/cannot be compared/);
    expect(() => run('sortedBy(p, false)', { p: [[null, 'x']] })).toThrow(/cannot be compared/);
  });
});
