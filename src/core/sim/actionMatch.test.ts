import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A, U, dialogue, refusedBy } from '../testing/dialogues.ts';
import { testScenario } from '../testing/scenarios.ts';
import { argDifferences, jsonEqual, requiredWithArgs } from './actionMatch.ts';
import { checkExpectations } from './expectations.ts';

/** The same JSON value with every object's keys in another order. */
function reordered(value: unknown, flip: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => reordered(v, flip));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, reordered(v, flip)] as const);
  return Object.fromEntries(
    flip ? entries.reverse() : entries.sort(([a], [b]) => (a < b ? 1 : -1)),
  );
}

const json = fc.jsonValue() as fc.Arbitrary<unknown>;
const argsArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), json, { maxKeys: 5 });

describe('jsonEqual', () => {
  it('holds for a value and itself with its keys in any order', () => {
    fc.assert(
      fc.property(json, fc.boolean(), (v, flip) => {
        expect(jsonEqual(v, reordered(v, flip))).toBe(true);
        expect(jsonEqual(reordered(v, flip), v)).toBe(true);
      }),
    );
  });

  it('agrees with comparing canonical JSON', () => {
    const canonical = (v: unknown): string => JSON.stringify(reordered(v, false));
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonical(a) === canonical(b));
      }),
    );
  });

  it('does not coerce between types', () => {
    expect(jsonEqual(true, 1)).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual(1, 1.0)).toBe(true);
  });
});

describe('argDifferences (tau2-bench’s compare_with_tool_call)', () => {
  it('matches a call iff the compared arguments are equal, whatever the key order', () => {
    fc.assert(
      fc.property(argsArb, argsArb, fc.boolean(), (expected, other, flip) => {
        const call = reordered({ ...other, ...expected }, flip) as Record<string, unknown>;
        const compare = Object.keys(expected);
        // The expected arguments, compared by name: equal values whatever else the call gives.
        expect(argDifferences({ args: expected, compare }, call)).toEqual([]);
        // Any compared argument changed is named as the difference.
        for (const name of compare) {
          const changed = { ...call, [name]: { changed: call[name] ?? null } };
          expect(argDifferences({ args: expected, compare }, changed).map((d) => d.name)).toEqual([
            name,
          ]);
        }
      }),
    );
  });

  it('without compare_args, compares the arguments the call gives', () => {
    fc.assert(
      fc.property(argsArb, argsArb, (expected, call) => {
        const differs = Object.keys(call).some(
          (k) => !Object.hasOwn(expected, k) || !jsonEqual(expected[k], call[k]),
        );
        expect(argDifferences({ args: expected }, call).length > 0).toBe(differs);
      }),
    );
    // An argument only the expectation has is not compared; one only the call has is.
    expect(argDifferences({ args: { id: 'o1', reason: 'x' } }, { id: 'o1' })).toEqual([]);
    expect(argDifferences({ args: { id: 'o1' } }, { id: 'o1', extra: 1 })).toEqual([
      { name: 'extra', actual: 1 },
    ]);
  });

  it('compares only compare_args when given, and nothing for an empty list', () => {
    const expected = { args: { id: 'o1', reason: 'x' }, compare: ['id'] };
    expect(argDifferences(expected, { id: 'o1', reason: 'y' })).toEqual([]);
    expect(argDifferences(expected, { id: 'o2', reason: 'x' })).toEqual([
      { name: 'id', expected: 'o1', actual: 'o2' },
    ]);
    expect(argDifferences({ ...expected, compare: [] }, { id: 'o9' })).toEqual([]);
    expect(argDifferences({ args: { id: 'o1' }, compare: ['id'] }, {})).toEqual([
      { name: 'id', expected: 'o1' },
    ]);
  });
});

describe('requiredWithArgs', () => {
  const expected = { args: { order_id: '#W1', items: ['a', 'b'], reason: 'ordered by mistake' } };

  it('passes on a call with equal arguments in another key order', () => {
    const t = dialogue([
      U('Cancel it'),
      A(
        'Done.',
        {
          tool: 'cancel',
          args: { order_id: '#W1', reason: 'no longer needed', items: ['a', 'b'] },
        },
        {
          tool: 'cancel',
          args: { reason: 'ordered by mistake', items: ['a', 'b'], order_id: '#W1' },
        },
      ),
    ]);
    const verdict = requiredWithArgs(t.calls, 'cancel', expected);
    expect(verdict.passed).toBe(true);
    expect(verdict.detail).toContain('which has the expected arguments');
  });

  it('names the argument that differed in the closest call', () => {
    const t = dialogue([
      U('Cancel it'),
      A('One.', { tool: 'cancel', args: { order_id: '#W2', items: ['b'], reason: 'other' } }),
      U('Again'),
      A('Two.', { tool: 'cancel', args: { order_id: '#W1', items: ['a', 'b'], reason: 'other' } }),
      U('Once more'),
      A('Three.', { tool: 'cancel', args: { order_id: '#W3', items: [], note: 'x' } }),
    ]);
    const verdict = requiredWithArgs(t.calls, 'cancel', expected);
    expect(verdict).toEqual({
      passed: false,
      turn: 3,
      detail:
        'The agent called cancel 3 times but never as expected (cancel({"order_id":"#W1","items":["a","b"],"reason":"ordered by mistake"})); the closest, in its 2nd reply, gave reason "other" where "ordered by mistake" was expected.',
    });
  });

  it('does not count a call a guard refused, and says so', () => {
    const t = dialogue([
      U('Cancel it'),
      A('No.', { tool: 'cancel', args: expected.args, ...refusedBy('r1', 'not allowed') }),
    ]);
    const verdict = requiredWithArgs(t.calls, 'cancel', expected);
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toContain('(a guard refused all 1)');
    expect(requiredWithArgs([], 'cancel', expected).detail).toBe(
      'The agent never made the expected call cancel({"order_id":"#W1","items":["a","b"],"reason":"ordered by mistake"}).',
    );
  });

  it('is what checkExpectations uses for a required action with args, and the plain form stays', () => {
    const t = dialogue([
      U('Cancel it'),
      A('Done.', { tool: 'cancel', args: { order_id: '#W9' }, ok: false, result: 'error' }),
    ]);
    const scenario = testScenario({
      expected: {
        requiredActions: ['cancel', 'cancel'],
        actionArgs: { 'expected.required_actions[1]': { args: { order_id: '#W1' } } },
      },
    });
    const [plain, withArgs] = checkExpectations(scenario, t, {}, {});
    expect(plain).toMatchObject({ id: 'expected.required_actions[0]', passed: false });
    expect(plain?.detail).toContain('it failed');
    expect(withArgs).toMatchObject({ id: 'expected.required_actions[1]', passed: false });
    expect(withArgs?.detail).toContain('gave order_id "#W9" where "#W1" was expected');
  });
});
