import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { PastCall } from '../rules/guards.ts';
import { ticketDesk, ticketDeskWith } from '../testing/ticketDesk.ts';
import { seedDatabase } from './database.ts';
import type { Database, SimEvent } from './events.ts';
import { answerToolCall } from './toolCall.ts';
import { runTool } from './toolRuntime.ts';

const NOW = '2024-05-15T15:00:00-05:00';
const { model } = parseProject(ticketDesk());
const seed = seedDatabase(model).db;

function cancel(orderId: string, db: Database = seed) {
  return runTool(model, db, { tool: 'cancel_order', args: { order_id: orderId } }, { now: NOW });
}

describe('tool preconditions (`requires`)', () => {
  it('runs the effects when every precondition holds', () => {
    const outcome = cancel('o1');
    expect(outcome.ok).toBe(true);
    expect(outcome.db.orders?.find((o) => o.id === 'o1')?.status).toBe('cancelled');
  });

  it('fails with the first unmet precondition’s own error, changing nothing', () => {
    const delivered = cancel('o2');
    expect(delivered).toEqual({
      ok: false,
      db: seed,
      error: 'Non-pending order cannot be cancelled.',
    });
    // The first precondition that does not hold speaks; the later ones are not tried.
    expect(cancel('o9')).toMatchObject({ ok: false, error: 'There is no such order.' });
  });

  it('never runs an effect when a precondition is false, whatever the orders', () => {
    const status = fc.constantFrom('pending', 'delivered', 'cancelled');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ id: fc.constantFrom('o1', 'o2', 'o3', 'o4'), status }), {
          selector: (o) => o.id,
        }),
        fc.constantFrom('o1', 'o2', 'o3', 'o4', 'o5'),
        (orders, target) => {
          const db: Database = { orders: orders.map((o) => ({ ...o, refunded: 0 })) };
          const outcome = cancel(target, db);
          const row = orders.find((o) => o.id === target);
          if (row?.status === 'pending') {
            expect(outcome.ok).toBe(true);
            return;
          }
          expect(outcome.ok).toBe(false);
          expect(outcome.db).toBe(db);
          expect(outcome).toMatchObject({
            error: row ? 'Non-pending order cannot be cancelled.' : 'There is no such order.',
          });
        },
      ),
    );
  });

  it('fails the call with a plain message when a precondition gives no true or false', () => {
    const odd = parseProject(
      ticketDeskWith('tools.yaml', `'db.orders.exists(o, o.id == args.order_id)'`, 'args.order_id'),
    ).model;
    const outcome = runTool(
      odd,
      seed,
      { tool: 'cancel_order', args: { order_id: 'o1' } },
      {
        now: NOW,
      },
    );
    expect(outcome).toMatchObject({ ok: false, db: seed });
    expect(!outcome.ok && outcome.error).toBe(
      '"cancel_order" failed and changed nothing: precondition 1 gave "o1", not true or false.',
    );
  });

  it('is logged as the tool’s failed result, after a guard that allowed the call', async () => {
    const events: SimEvent[] = [];
    const history: PastCall[] = [];
    const outcome = await answerToolCall(
      { id: 'c1', name: 'cancel_order', arguments: '{"order_id":"o2"}' },
      seed,
      {
        model,
        dialogue: 'd#1',
        turn: 1,
        now: NOW,
        clock: () => 0,
        emit: (event) => events.push(event),
        history,
        askUser: () => Promise.reject(new Error('not asked')),
      },
    );
    expect(outcome).toEqual({ content: 'Error: Non-pending order cannot be cancelled.', db: seed });
    expect(events.map((e) => e.type)).toEqual(['tool-call', 'guard', 'tool-result']);
    // Not a guard refusal: the guard allowed it and names no rule or policy.
    expect(events[1]).toMatchObject({ type: 'guard', allowed: true });
    expect(events[1]).not.toHaveProperty('rule');
    expect(events[2]).toMatchObject({
      type: 'tool-result',
      ok: false,
      result: 'Error: Non-pending order cannot be cancelled.',
      changes: [],
    });
    expect(history).toEqual([{ tool: 'cancel_order', args: { order_id: 'o2' }, allowed: true }]);
  });

  it('sees arguments typed by the tool’s schema, as its effects and returns do', () => {
    const outcome = runTool(
      model,
      seed,
      { tool: 'refund', args: { order_id: 'o1', amount: 150 } },
      { now: NOW },
    );
    expect(outcome).toMatchObject({ ok: true, result: '"refunded in steps"' });
    // The integer argument is stored as a plain number.
    expect(outcome.db.orders?.find((o) => o.id === 'o1')?.refunded).toBe(150);
  });

  describe('a precondition that encodes a policy', () => {
    const pending = `        error: Non-pending order cannot be cancelled.`;
    const policed = (extra = '') =>
      parseProject(
        ticketDeskWith('tools.yaml', pending, `${pending}\n        policy: before-show${extra}`),
      ).model;
    const scene = (on: typeof model, events: SimEvent[]) => ({
      model: on,
      dialogue: 'd#1',
      turn: 1,
      now: NOW,
      clock: () => 0,
      emit: (event: SimEvent) => events.push(event),
      history: [] as PastCall[],
      askUser: () => Promise.reject(new Error('not asked')),
    });

    it('names the policy and the precondition when it refuses the call', () => {
      const outcome = runTool(
        policed(),
        seed,
        { tool: 'cancel_order', args: { order_id: 'o2' } },
        { now: NOW },
      );
      expect(outcome).toEqual({
        ok: false,
        db: seed,
        error: 'Non-pending order cannot be cancelled.',
        refusedBy: { precondition: 1, policy: 'before-show' },
        checked: ['before-show'],
      });
      // A lookup that comes up empty is the tool's own failure: no policy, no attempt.
      expect(
        runTool(policed(), seed, { tool: 'cancel_order', args: { order_id: 'o9' } }, { now: NOW }),
      ).toEqual({ ok: false, db: seed, error: 'There is no such order.' });
    });

    it('logs the refusal on the result, and the policy as checked when it holds', async () => {
      const events: SimEvent[] = [];
      await answerToolCall(
        { id: 'c1', name: 'cancel_order', arguments: '{"order_id":"o2"}' },
        seed,
        scene(policed('\n        attempt: noted'), events),
      );
      expect(events[2]).toMatchObject({
        type: 'tool-result',
        ok: false,
        refusedBy: { precondition: 1, policy: 'before-show', noted: true },
        checked: ['before-show'],
      });
      const allowed: SimEvent[] = [];
      await answerToolCall(
        { id: 'c2', name: 'cancel_order', arguments: '{"order_id":"o1"}' },
        seed,
        scene(policed(), allowed),
      );
      expect(allowed[2]).toMatchObject({ type: 'tool-result', ok: true, checked: ['before-show'] });
      expect(allowed[2]).not.toHaveProperty('refusedBy');
    });
  });
});
