import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CelRunError, compileCel, isCelProblem } from './cel.ts';
import type { CompiledExpression } from './cel.ts';
import { CEL_STEP_BUDGET, celStepsLeft, chargeCel, withCelBudget } from './celMeter.ts';
import { celRange } from './celFunctions.ts';

function compiled(source: string): CompiledExpression {
  const result = compileCel(source);
  if (isCelProblem(result)) throw new Error(result.message);
  return result;
}

/** The error an evaluation throws, or undefined when it gives a value. */
function failure(source: string, variables: Record<string, unknown> = {}): string | undefined {
  try {
    compiled(source).run(variables);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(CelRunError);
    return (error as Error).message;
  }
}

const LIMIT = new RegExp(`stopped after ${CEL_STEP_BUDGET.toLocaleString('en-US')} steps`);
/** About 7 steps per inner iteration: 200 × 200 is under the budget, twice that is not. */
const NESTED = (a: number, b: number) => `range(${a}).all(i, range(${b}).all(j, i + j >= 0))`;

describe('the CEL step budget', () => {
  it('lets an ordinary condition through and stops a huge one with a message naming the limit', () => {
    expect(compiled(NESTED(200, 200)).run({})).toBe(true);
    expect(failure(NESTED(100_000, 100_000))).toMatch(LIMIT);
    expect(failure(NESTED(100_000, 100_000))).toMatch(/nested all\/exists\/map\/filter/i);
  });

  it('gives each lone evaluation a budget of its own', () => {
    const near = compiled(NESTED(200, 200));
    for (let i = 0; i < 3; i++) expect(near.run({})).toBe(true);
  });

  it('shares one budget between the evaluations of one scope, and a nested scope shares it too', () => {
    const near = compiled(NESTED(200, 200));
    const thrown = withCelBudget(
      () => {
        near.run({});
        return withCelBudget(
          () => {
            try {
              near.run({});
              return undefined;
            } catch (error) {
              return (error as Error).message;
            }
          },
          'tool-call',
          10 * CEL_STEP_BUDGET,
        );
      },
      'guards',
      CEL_STEP_BUDGET,
    );
    expect(thrown).toMatch(LIMIT);
    expect(thrown).toMatch(/the guard rules of one tool call together/);
    // After the scope, a lone evaluation starts afresh.
    expect(near.run({})).toBe(true);
  });

  it('gives a scope that asks for it a budget of its own size (lint’s search over many evaluations)', () => {
    const near = compiled(NESTED(200, 200));
    const runs = (steps: number) =>
      withCelBudget(
        () => {
          let done = 0;
          try {
            for (; done < 10; done++) near.run({});
          } catch {
            // the scope's budget is spent
          }
          return done;
        },
        'lint',
        steps,
      );
    expect(runs(CEL_STEP_BUDGET)).toBe(1);
    expect(runs(5 * CEL_STEP_BUDGET)).toBeGreaterThanOrEqual(6);
    expect(runs(5 * CEL_STEP_BUDGET)).toBeLessThan(10);
  });

  it('is not swallowed by a quantifier or a logical operator, which keep other errors', () => {
    // CEL says `error || true` is true: an ordinary error is kept and the other side decides.
    expect(compiled('(1 / 0 == 1) || true').run({})).toBe(true);
    expect(failure(`${NESTED(100_000, 100_000)} || true`)).toMatch(LIMIT);
    expect(failure(`[1, 2].exists(x, ${NESTED(100_000, 100_000)})`)).toMatch(LIMIT);
  });

  it('charges range(n) by n: few steps, each building a long list, still stop', () => {
    expect(failure('range(20).all(i, size(range(100000)) > 0)')).toMatch(LIMIT);
    expect(compiled('range(4).all(i, size(range(100000)) > 0)').run({})).toBe(true);
  });

  it('charges the list functions by the size of what they walk', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => i);
    expect(failure('range(20).all(i, sum(args.xs) > 0.0)', { args: { xs: list } })).toMatch(LIMIT);
    expect(failure('range(20).all(i, size(sorted(args.xs)) > 0)', { args: { xs: list } })).toMatch(
      LIMIT,
    );
  });

  it('charges the pattern matcher’s steps, so matching in a loop over a long list stops too', () => {
    const t = `${'a'.repeat(2000)}b`;
    expect(compiled("args.t.matches('a+b')").run({ args: { t } })).toBe(true);
    expect(failure("range(100000).all(i, args.t.matches('a+b'))", { args: { t } })).toMatch(LIMIT);
  });

  it('charges nothing to a function called outside an evaluation', () => {
    withCelBudget(
      () => {
        const before = celStepsLeft();
        expect(celRange(5)).toHaveLength(5);
        chargeCel(CEL_STEP_BUDGET * 2);
        expect(celStepsLeft()).toBe(before);
      },
      'guards',
      CEL_STEP_BUDGET,
    );
  });

  it('decides by steps, never by time: the same outcome every run, monotone in the work', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 }), (a, b) => {
        const first = failure(NESTED(a, b));
        expect(failure(NESTED(a, b))).toBe(first);
        // Well under: an answer; well over: the limit.
        if (a * b <= 50_000) expect(first).toBeUndefined();
        if (a * b >= 500_000) expect(first).toMatch(LIMIT);
      }),
      { numRuns: 60 },
    );
  });
});
