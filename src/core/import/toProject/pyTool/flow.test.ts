import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from '../../../cel.ts';
import { programOf } from '../pyTool.ts';

// Early returns made into branches (`liftReturns`), checked against Python's own meaning: small
// functions of three truth-valued arguments, built from `if`/`elif`/`else`, `return <n>`,
// `raise` and assignments, are run by a tiny interpreter written here and read by the tool
// reader; for every combination of arguments the reader's failures and returned value must be
// what the interpreter gives.

type Stmt =
  | { readonly s: 'return'; readonly v: number | 'x' | null }
  | { readonly s: 'raise' }
  | { readonly s: 'set'; readonly v: number }
  | { readonly s: 'if'; readonly branches: ReadonlyArray<readonly [string | null, Stmt[]]> };

const CONDS = ['a', 'not b', 'a and c', 'b or c', 'not (a or b)'];

const stmt: fc.Memo<Stmt> = fc.memo((n) =>
  n <= 1
    ? fc.oneof(
        fc.record({
          s: fc.constant('return' as const),
          v: fc.oneof(fc.nat(9), fc.constantFrom('x' as const, null)),
        }),
        fc.constant({ s: 'raise' as const }),
        fc.record({ s: fc.constant('set' as const), v: fc.nat(9) }),
      )
    : fc.oneof(
        { weight: 2, arbitrary: stmt(1) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(
              fc.array(fc.tuple(fc.constantFrom(...CONDS), block(n - 1)), {
                minLength: 1,
                maxLength: 3,
              }),
              fc.option(block(n - 1), { nil: undefined }),
            )
            .map(([ifs, otherwise]) => ({
              s: 'if' as const,
              branches: [...ifs, ...(otherwise ? [[null, otherwise] as const] : [])],
            })),
        },
      ),
);
const block = (n: number) => fc.array(stmt(n), { minLength: 1, maxLength: 3 });

function source(body: readonly Stmt[], indent = '    '): string {
  return body
    .map((st) => {
      switch (st.s) {
        case 'return':
          return `${indent}return ${st.v === null ? 'None' : st.v}`;
        case 'raise':
          return `${indent}raise ValueError("no")`;
        case 'set':
          return `${indent}x = ${st.v}`;
        case 'if':
          return st.branches
            .map(
              ([cond, inner], i) =>
                `${indent}${cond === null ? 'else' : i === 0 ? `if ${cond}` : `elif ${cond}`}:\n${source(inner, `${indent}    `)}`,
            )
            .join('\n');
      }
    })
    .join('\n');
}

type Args = { a: boolean; b: boolean; c: boolean };
const holds = (cond: string, { a, b, c }: Args) =>
  ({ a, 'not b': !b, 'a and c': a && c, 'b or c': b || c, 'not (a or b)': !(a || b) })[cond] ===
  true;

/** Python's meaning: the returned value, or 'fails'. */
function python(
  body: readonly Stmt[],
  args: Args,
  locals = { x: 0 },
): { done: boolean; value: unknown } {
  for (const st of body) {
    if (st.s === 'return') return { done: true, value: st.v === 'x' ? locals.x : st.v };
    if (st.s === 'raise') return { done: true, value: 'fails' };
    if (st.s === 'set') locals.x = st.v;
    if (st.s === 'if') {
      const taken = st.branches.find(([cond]) => cond === null || holds(cond, args));
      if (taken) {
        const out = python(taken[1], args, locals);
        if (out.done) return out;
      }
    }
  }
  return { done: false, value: null };
}

describe('early returns read as branches (liftReturns)', () => {
  it('gives what Python gives for every argument, or refuses (property)', () => {
    const combos: Args[] = [false, true].flatMap((a) =>
      [false, true].flatMap((b) => [false, true].map((c) => ({ a, b, c }))),
    );
    let read = 0;
    fc.assert(
      fc.property(block(3), (body) => {
        const text = `def tool(self, a: bool, b: bool, c: bool):\n    x = 0\n${source(body)}\n`;
        const bool = { type: 'boolean' };
        const out = programOf(text, {}, { properties: { a: bool, b: bool, c: bool } }, [], 1, {
          returns: true,
        });
        if ('reason' in out) return; // refusing is allowed; answering wrong is not
        read++;
        const returns = compileCel(out.returns ?? 'null');
        if (isCelProblem(returns)) throw new Error(returns.message);
        for (const args of combos) {
          const failed = out.requires.some((r) => {
            const cond = compileCel(r.condition);
            if (isCelProblem(cond)) throw new Error(cond.message);
            return cond.run({ args, db: {} }) !== true;
          });
          const got = failed ? 'fails' : returns.run({ args, db: {} });
          const want = python(body, args).value;
          expect(
            typeof got === 'bigint' ? Number(got) : got,
            `${text}\n${JSON.stringify(args)}`,
          ).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
    // Most such bodies are read, not refused.
    expect(read).toBeGreaterThan(200);
  });

  it('reads a search loop as the row it finds, and what follows it as the path where none is', () => {
    const out = programOf(
      [
        'def tool(self, n: float):',
        '    for v in [1.0, 2.0, 3.0]:',
        '        if v > n:',
        '            return v * 10',
        '    return 0',
      ].join('\n'),
      {},
      { properties: { n: { type: 'number' } } },
      [],
      1,
      { returns: true },
    );
    expect('returns' in out).toBe(true);
    if (!('returns' in out)) return;
    const returns = compileCel(out.returns ?? '');
    if (isCelProblem(returns)) throw new Error(returns.message);
    expect([0.5, 1.5, 2.5, 3.5].map((n) => Number(returns.run({ args: { n }, db: {} })))).toEqual([
      10, 20, 30, 0,
    ]);
  });

  it('reads a list built item by item (append in a loop, under an if or not) as Python builds it', () => {
    const read = (body: string[]) => {
      const out = programOf(
        ['def tool(self, n: float):', ...body].join('\n'),
        {},
        { properties: { n: { type: 'number' } } },
        [],
        1,
        { returns: true },
      );
      if ('reason' in out) return out.reason;
      const returns = compileCel(out.returns ?? '');
      if (isCelProblem(returns)) throw new Error(returns.message);
      return [0.5, 2.5].map((n) => returns.run({ args: { n }, db: {} }));
    };
    const list = [1.0, 2.0, 3.0];
    // Python: [v * 10 for v in xs if v > n], and every item doubled.
    expect(
      read([
        '    found = []',
        '    for v in [1.0, 2.0, 3.0]:',
        '        if v > n:',
        '            found.append(v * 10)',
        '    return found',
      ]),
    ).toEqual([
      list.filter((v) => v > 0.5).map((v) => v * 10),
      list.filter((v) => v > 2.5).map((v) => v * 10),
    ]);
    expect(
      read([
        '    out = []',
        '    for v in [1.0, 2.0, 3.0]:',
        '        out.append(v + n)',
        '    return out',
      ]),
    ).toEqual([list.map((v) => v + 0.5), list.map((v) => v + 2.5)]);
    // A list read while it is built is no comprehension: refused, never read wrong.
    expect(
      read([
        '    out = []',
        '    for v in [1.0, 2.0, 3.0]:',
        '        out.append(len(out))',
        '    return out',
      ]),
    ).toEqual(expect.any(String));
  });

  it('reads sorted() by a lambda key, reversed, then sliced, as Python orders and cuts', () => {
    const out = programOf(
      [
        'def tool(self, limit: int):',
        '    rows = [{"id": "a", "d": "2025-01-05"}, {"id": "b", "d": "2025-03-01"}, {"id": "c", "d": "2025-02-05"}]',
        '    return [r["id"] for r in sorted(rows, key=lambda r: r["d"], reverse=True)[:limit]]',
      ].join('\n'),
      {},
      { properties: { limit: { type: 'integer' } } },
      [],
      1,
      { returns: true },
    );
    if ('reason' in out) throw new Error(out.reason);
    const returns = compileCel(out.returns ?? '');
    if (isCelProblem(returns)) throw new Error(returns.message);
    // Python: ['b', 'c', 'a'][:limit] for 12, 2 and -1.
    expect([12n, 2n, -1n].map((limit) => returns.run({ args: { limit }, db: {} }))).toEqual([
      ['b', 'c', 'a'],
      ['b', 'c'],
      ['b', 'c'],
    ]);
  });
});
