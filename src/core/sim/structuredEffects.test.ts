import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProjectModel, Row } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { BAKERY_FILES, bakeryProject } from '../testing/bakeryProject.ts';
import { describeChange, seedDatabase } from './database.ts';
import type { Database } from './events.ts';
import { applyChange } from './fork.ts';
import type { ToolOutcome } from './toolRuntime.ts';
import { runTool } from './toolRuntime.ts';

const NOW = '2026-03-01T09:00:00Z';

function bakery(tools?: string): { model: ProjectModel; db: Database } {
  const project = bakeryProject(tools === undefined ? {} : { 'tools.yaml': tools });
  const { model, diagnostics } = parseProject(project);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { model, db: seedDatabase(model).db };
}

const BAKERY = bakery();

function call(tool: string, args: Record<string, unknown>, db: Database = BAKERY.db) {
  return runTool(BAKERY.model, db, { tool, args }, { now: NOW });
}

function ok(outcome: ToolOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error}`);
  return outcome;
}

function failure(outcome: ToolOutcome): string {
  if (outcome.ok) throw new Error(`expected a failure, got: ${outcome.result}`);
  return outcome.error;
}

const item = fc.record({
  name: fc.string({ minLength: 1, maxLength: 8 }),
  price: fc.integer({ min: 0, max: 4000 }).map((cents) => cents / 100),
  quantity: fc.integer({ min: 1, max: 9 }),
});

describe('effects over structured data', () => {
  it('places an order: a generated id, one line per item, the note, the id added to the list', () => {
    const items = [
      { name: 'bun', price: 1.25, quantity: 4 },
      { name: 'tart', price: 3, quantity: 1 },
    ];
    const out = ok(call('place_order', { customer_id: 'c1', items, note: 'birthday' }));
    expect(out.changes.map(describeChange)).toEqual([
      'orders #B0002: inserted (id "#B0002", customer_id "c1", items [{"name":"bun","price":1.25,"quantity":4},{"name":"tart",..., total 8, status "pending")',
      'lines 1: inserted (id 1, order_id "#B0002", name "bun", quantity 4)',
      'lines 2: inserted (id 2, order_id "#B0002", name "tart", quantity 1)',
      'notes #B0002: inserted (order_id "#B0002", text "birthday")',
      'customers c1: orders ["#B0001"] → ["#B0001","#B0002"]',
    ]);
    expect(out.db.orders?.[1]?.items).toEqual(items);
  });

  it('skips an effect whose "when" is false, and the rest still runs', () => {
    const out = ok(call('place_order', { customer_id: 'c1', items: [] }));
    expect(out.changes.map((c) => `${c.table} ${c.kind}`)).toEqual([
      'orders insert',
      'customers update',
    ]);
    expect(out.db.notes).toEqual([]);
  });

  it('refuses a whole call whose structured value breaks its column schema', () => {
    const items = [{ name: 'bun', price: 1, quantity: 0 }];
    const out = call('place_order', { customer_id: 'c1', items });
    expect(failure(out)).toBe(
      '"place_order" failed and changed nothing: effect 1 (insert orders) would add a row that does not fit: "items" does not fit its schema: "items[0].quantity" must be >= 1.',
    );
    expect(out.db).toBe(BAKERY.db);
  });

  it('reads nested values and sums a list in CEL', () => {
    const tools = `tools:
  - name: order_summary
    description: Name and total of an order.
    kind: read
    returns: >-
      {"first": db.orders[0].items[0].name, "city": db.customers[0].address.city,
       "total": sum(db.orders[0].items.map(i, i.price * double(i.quantity))),
       "cheapest": min(db.orders[0].items.map(i, i.price))}
`;
    const { model } = bakery(tools);
    const out = ok(runTool(model, BAKERY.db, { tool: 'order_summary', args: {} }, { now: NOW }));
    expect(JSON.parse(out.result)).toEqual({
      first: 'rye loaf',
      city: 'Leeds',
      total: 9,
      cheapest: 4.5,
    });
  });

  it('says so when "for_each" is not a list, and changes nothing', () => {
    const tools = BAKERY_FILES['tools.yaml']?.replace(
      'for_each: args.items',
      'for_each: args.customer_id',
    );
    const { model } = bakery(tools);
    const out = runTool(
      model,
      BAKERY.db,
      { tool: 'place_order', args: { customer_id: 'c1', items: [] } },
      { now: NOW },
    );
    expect(failure(out)).toBe(
      '"place_order" failed and changed nothing: effect 2 (insert lines), its "for_each" gave "c1", not a list.',
    );
  });

  it('for_each over any list of items inserts exactly those lines, in order', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        const out = ok(call('place_order', { customer_id: 'c1', items }));
        const lines = out.db.lines ?? [];
        expect(lines.map((l) => [l.name, l.quantity])).toEqual(
          items.map((i) => [i.name, i.quantity]),
        );
        expect(new Set(lines.map((l) => l.id)).size).toBe(items.length);
        expect(lines.every((l) => l.order_id === '#B0002')).toBe(true);
        const total = items.reduce((sum, i) => sum + i.price * i.quantity, 0);
        expect(out.db.orders?.[1]?.total).toBeCloseTo(total, 9);
      }),
      { numRuns: 60 },
    );
  });

  it('a skipped effect changes nothing: an empty note adds no row and leaves the rest as without one', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 3 }), fc.string({ maxLength: 6 }), (items, note) => {
        const without = ok(call('place_order', { customer_id: 'c1', items }));
        const out = ok(call('place_order', { customer_id: 'c1', items, note }));
        if (note === '') {
          expect(out.changes).toEqual(without.changes);
          expect(out.db).toEqual(without.db);
        } else {
          expect(out.db.notes).toEqual([{ order_id: '#B0002', text: note }]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a "when" is read per item of its for_each', () => {
    const tools = BAKERY_FILES['tools.yaml']?.replace(
      '        as: line\n',
      '        as: line\n        when: line.quantity > 1\n',
    );
    const { model } = bakery(tools);
    const items = [
      { name: 'a', price: 1, quantity: 2 },
      { name: 'b', price: 1, quantity: 1 },
      { name: 'c', price: 1, quantity: 3 },
    ];
    const out = ok(
      runTool(
        model,
        BAKERY.db,
        { tool: 'place_order', args: { customer_id: 'c1', items } },
        { now: NOW },
      ),
    );
    expect(out.db.lines?.map((l) => l.name)).toEqual(['a', 'c']);
  });
});

type Step =
  | { readonly tool: 'place_order'; readonly items: readonly Row[] }
  | {
      readonly tool: 'cancel_order';
      readonly nth: number;
    };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ tool: fc.constant('place_order' as const), items: fc.array(item, { maxLength: 3 }) }),
  fc.record({ tool: fc.constant('cancel_order' as const), nth: fc.nat(5) }),
);

/** Runs the steps from the seed data; returns the database and every change each call logged. */
function play(steps: readonly Step[], start: Database) {
  let db = start;
  const logged = [];
  for (const s of steps) {
    const args =
      s.tool === 'place_order'
        ? { customer_id: 'c1', items: s.items }
        : { order_id: db.orders?.[s.nth % (db.orders.length || 1)]?.id ?? 'none' };
    const out = ok(call(s.tool, args, db));
    db = out.db;
    logged.push(...out.changes);
  }
  return { db, logged };
}

describe('generated ids', () => {
  it('a run rebuilt from its logged changes (a fork, a re-check) holds the same ids and makes the same next one', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        const original = play(steps, BAKERY.db);
        let rebuilt: Database = BAKERY.db;
        for (const change of original.logged) {
          const made = applyChange(BAKERY.model, rebuilt, change);
          if (typeof made === 'string') throw new Error(made);
          rebuilt = made;
        }
        expect(rebuilt).toEqual(original.db);
        const order = { customer_id: 'c1', items: [{ name: 'bun', price: 1, quantity: 1 }] };
        const next = ok(call('place_order', order, original.db)).changes;
        expect(ok(call('place_order', order, rebuilt)).changes).toEqual(next);
      }),
      { numRuns: 60 },
    );
  });

  it('the same calls from the same rows give the same ids (a resumed run re-runs a dialogue)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        expect(play(steps, BAKERY.db)).toEqual(play(steps, BAKERY.db));
        const ids = (play(steps, BAKERY.db).db.orders ?? []).map((o) => o.id);
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 40 },
    );
  });

  it('skips an id already taken, and a value the insert gives wins over a generated one', () => {
    const taken = {
      ...BAKERY.db,
      // One row, holding the id a count of rows would give next.
      orders: [{ ...BAKERY.db.orders?.[0], id: '#B0002' }],
    };
    const out = ok(call('place_order', { customer_id: 'c1', items: [] }, taken));
    expect(out.changes[0]?.key).toBe('#B0003');
    const line = { id: 2, order_id: '#B0001', name: 'rye loaf', quantity: 2 };
    const bun = { name: 'bun', price: 1, quantity: 1 };
    const after = ok(
      call('place_order', { customer_id: 'c1', items: [bun] }, { ...taken, lines: [line] }),
    );
    expect(after.db.lines?.map((l) => l.id)).toEqual([2, 3]);
    const tools = BAKERY_FILES['tools.yaml']?.replace(
      'customer_id: args.customer_id\n',
      'id: \'"#MINE"\'\n          customer_id: args.customer_id\n',
    );
    const { model } = bakery(tools);
    const own = ok(
      runTool(
        model,
        BAKERY.db,
        { tool: 'place_order', args: { customer_id: 'c1', items: [] } },
        { now: NOW },
      ),
    );
    expect(own.changes[0]?.key).toBe('#MINE');
  });
});
