import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCel, compileCel, isCelProblem } from './cel.ts';

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
