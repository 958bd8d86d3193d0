import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from './cel.ts';

/** Runs `source` on `variables`: its value, or `error` when CEL fails. */
function run(source: string, variables: Record<string, unknown>): unknown {
  const compiled = compileCel(source);
  if (isCelProblem(compiled)) throw new Error(compiled.message);
  try {
    return compiled.run(variables);
  } catch {
    return 'error';
  }
}

// `&& true` keeps a look-up off the one-loop path: the same question, asked the interpreted way.
const asWritten = (source: string) =>
  source.replace(/ == (args\.k|db\.[^)]+\)\[0\]\.k)\)/, ' == $1 && true)');

const row = fc.oneof(
  fc.record({ k: fc.constantFrom('a', 'b', 'c'), n: fc.integer() }),
  fc.record({ k: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ n: fc.integer() }),
  fc.constant(null),
  fc.constantFrom('a', 'b'),
);

describe('keyed look-ups (celKeyed.ts) answer as CEL does', () => {
  it('exists and filter by a field equal to a value: the same answer and the same errors (property)', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 8 }),
        fc.oneof(fc.constantFrom('a', 'b', 'z'), fc.integer({ min: 0, max: 2 })),
        (rows, key) => {
          const variables = { db: { t: rows }, args: { k: key } };
          for (const source of ['db.t.exists(r, r.k == args.k)', 'db.t.filter(r, r.k == args.k)']) {
            expect(run(source, variables)).toEqual(run(asWritten(source), variables));
            const flipped = source.replace('r.k == args.k', 'args.k == r.k');
            expect(run(flipped, variables)).toEqual(run(asWritten(source), variables));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('takes a look-up inside another that binds the same name as its own', () => {
    const orders = Array.from({ length: 2000 }, (_, i) => ({ id: `o${i}`, k: `u${i % 500}` }));
    const users = Array.from({ length: 500 }, (_, i) => ({ k: `u${i}`, name: `n${i}` }));
    const variables = { db: { orders, users }, args: { id: 'o1999' } };
    // Interpreted, the inner look-up would run once per user: past one condition's budget.
    expect(
      run('db.users.filter(r, r.k == db.orders.filter(r, r.id == args.id)[0].k)', variables),
    ).toEqual([{ k: 'u499', name: 'n499' }]);
    expect(
      run('db.users.exists(r, r.k == db.orders.filter(r, r.id == "nope")[0].k)', variables),
    ).toBe('error');
  });

  it('still charges the step budget for the rows it walks', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ k: `r${i}` }));
    expect(run('db.t.exists(r, r.k == args.k)', { db: { t: rows }, args: { k: 'x' } })).toBe(
      'error',
    );
  });
});
