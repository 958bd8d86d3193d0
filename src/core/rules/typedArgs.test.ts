import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel } from '../cel.ts';
import type { JsonSchemaObject } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { seedDatabase } from '../sim/database.ts';
import { toPlain } from '../sim/plainValues.ts';
import { ticketDesk } from '../testing/ticketDesk.ts';
import { decideToolCall } from './guards.ts';
import { celTypeOf, typedArgs, typedValue } from './typedArgs.ts';

const REFUND: JsonSchemaObject = {
  type: 'object',
  properties: {
    order_id: { type: 'string' },
    amount: { type: 'integer' },
    price: { type: 'number' },
    seats: { type: 'array', items: { type: 'integer' } },
    split: { type: 'object', properties: { parts: { type: 'integer' } } },
  },
};

const run = (source: string, args: Readonly<Record<string, unknown>>): unknown => {
  const compiled = compileCel(source);
  if ('offset' in compiled) throw new Error(compiled.message);
  return compiled.run({ args });
};

describe('typedArgs', () => {
  it('gives a declared integer to CEL as an int, so `%` works', () => {
    const args = typedArgs(REFUND, { order_id: 'o1', amount: 150 });
    expect(args.amount).toBe(150n);
    expect(run('args.amount % 50 == 0', args)).toBe(true);
    // Untyped, the same number is a CEL double, which has no `%`.
    expect(() => run('args.amount % 50 == 0', { amount: 150 })).toThrow(/no such overload/);
  });

  it('types integers inside lists and objects, and leaves numbers, strings and extras alone', () => {
    const args = typedArgs(REFUND, {
      order_id: '7',
      price: 3,
      seats: [1, 2],
      split: { parts: 2 },
      extra: 4,
    });
    expect(args).toEqual({
      order_id: '7',
      price: 3,
      seats: [1n, 2n],
      split: { parts: 2n },
      extra: 4,
    });
    expect(run('args.seats.all(s, s % 1 == 0) && args.split.parts * 2 == 4', args)).toBe(true);
  });

  it('leaves a value that breaks its schema as it came (the schema check names it)', () => {
    expect(typedArgs(REFUND, { amount: 1.5, seats: 'x' })).toEqual({ amount: 1.5, seats: 'x' });
    expect(typedValue({ type: ['integer', 'null'] }, 3)).toBe(3n);
    expect(typedValue({ type: ['integer', 'null'] }, null)).toBeNull();
  });

  it('round-trips: typed and made plain again, any integers are what the agent sent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.array(fc.integer()),
        fc.integer(),
        (amount, seats, parts) => {
          const sent = { order_id: 'o1', amount, seats, split: { parts } };
          const typed = typedArgs(REFUND, sent);
          expect(typed.amount).toBe(BigInt(amount));
          expect(toPlain(typed)).toEqual(sent);
          // CEL sees the same whole number the agent sent.
          expect(run('args.amount', typed)).toBe(BigInt(amount));
          expect(run('args.amount % 50 == 0', typed)).toBe(amount % 50 === 0);
        },
      ),
    );
  });

  it('names CEL types for JSON Schema types', () => {
    expect(
      ['string', 'integer', 'number', 'boolean', 'object', 'null'].map((t) =>
        celTypeOf({ type: t }),
      ),
    ).toEqual(['string', 'int', 'double', 'bool', 'map', 'dyn']);
    expect(celTypeOf({ type: 'array', items: { type: 'integer' } })).toBe('list<int>');
    expect(celTypeOf({ type: 'array' })).toBe('list');
    expect(celTypeOf({ type: ['string', 'null'] })).toBe('dyn');
  });
});

describe('guards see typed arguments', () => {
  const { model } = parseProject(ticketDesk());
  const db = seedDatabase(model).db;
  const decide = (amount: number, history: { tool: string; args: object }[] = []) =>
    decideToolCall(
      model,
      { tool: 'refund', args: { order_id: 'o1', amount } },
      {
        db,
        history: history.map((h) => ({
          ...h,
          args: h.args as Record<string, unknown>,
          allowed: true,
        })),
        now: '2024-05-15T20:00:00Z',
      },
    );

  it('decides `args.amount % 50` on an integer argument instead of failing', () => {
    expect(decide(100)).toMatchObject({ allowed: true });
    expect(decide(120)).toMatchObject({ allowed: false, reason: 'Refunds go in steps of 50.' });
  });

  it('for any whole amount, refuses exactly those off the steps of 50', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (amount) => {
        const decision = decide(amount);
        expect(decision.trace[0]?.outcome).not.toBe('failed');
        expect(decision.allowed).toBe(amount % 50 === 0);
      }),
    );
  });

  it('types the arguments of earlier calls in history too', () => {
    const typedModel = parseProject(
      ticketDesk({
        'rules.yaml': `guards:
  refund:
    rules:
      - id: one-step-at-a-time
        policy: refund-steps
        decision: forbid
        when: 'history.exists(c, c.tool == "refund" && c.args.amount % 50 == 0)'
        message: One refund only.
`,
      }),
    ).model;
    const decision = decideToolCall(
      typedModel,
      { tool: 'refund', args: { order_id: 'o1', amount: 50 } },
      {
        db,
        history: [{ tool: 'refund', args: { order_id: 'o1', amount: 100 }, allowed: true }],
        now: '2024-05-15T20:00:00Z',
      },
    );
    expect(decision).toMatchObject({ allowed: false, reason: 'One refund only.' });
  });
});
