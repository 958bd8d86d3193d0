import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projectFromFiles } from '../bundle.ts';
import type { ProjectModel, Row } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { PROJECT_FILES } from '../project.ts';
import { describeChange, diffDatabases, seedDatabase } from './database.ts';
import type { Database, RowChange } from './events.ts';
import type { ToolOutcome } from './toolRuntime.ts';
import { TOOL_RESULT_LIMIT, runTool, withDefaults } from './toolRuntime.ts';

const NOW = '2026-05-15T19:00:00Z';

const AIRLINE = (() => {
  const files = Object.fromEntries(
    PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
  );
  const model = parseProject(projectFromFiles('Airline', files).project).model;
  return { model, db: seedDatabase(model).db };
})();

function modelOf(tools: string, database: string): ProjectModel {
  const files = { 'tools.yaml': tools, 'database.yaml': database };
  return parseProject(projectFromFiles('Test', files).project).model;
}

function ok(outcome: ToolOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error}`);
  return outcome;
}

function failure(outcome: ToolOutcome): string {
  if (outcome.ok) throw new Error(`expected a failure, got: ${outcome.result}`);
  return outcome.error;
}

function airlineCall(tool: string, args: Record<string, unknown>, db: Database = AIRLINE.db) {
  return runTool(AIRLINE.model, db, { tool, args }, { now: NOW });
}

function row(db: Database, table: string, id: string): Row | undefined {
  return db[table]?.find((r) => r.id === id);
}

describe('runTool on the airline example', () => {
  it('looks a reservation up through its returns expression', () => {
    const out = ok(airlineCall('get_reservation', { reservation_id: 'QHZ9W5' }));
    expect(JSON.parse(out.result)).toEqual([row(AIRLINE.db, 'reservations', 'QHZ9W5')]);
    expect(out.changes).toEqual([]);
    expect(out.db).toBe(AIRLINE.db);
  });

  it('shows every table a multi-select look-up read (the profile, its payments and bookings)', () => {
    const out = ok(airlineCall('get_user_details', { user_id: 'mateo_alvarez_2446' }));
    const result = JSON.parse(out.result) as Record<string, Row[]>;
    expect(Object.keys(result)).toEqual(['users', 'payments', 'reservations']);
    expect(result.users?.map((u) => u.first_name)).toEqual(['Mateo']);
    expect(result.payments?.map((p) => p.id)).toEqual([
      'credit_card_4359360',
      'certificate_5149356',
    ]);
    expect(result.reservations?.every((r) => r.user_id === 'mateo_alvarez_2446')).toBe(true);
  });

  it('cancels a reservation: one field changes, and the input database is untouched', () => {
    const out = ok(
      airlineCall('cancel_reservation', { reservation_id: 'QHZ9W5', reason: 'health' }),
    );
    expect(out.changes.map(describeChange)).toEqual([
      'reservations QHZ9W5: status "active" → "cancelled"',
    ]);
    expect(JSON.parse(out.result)).toMatchObject([{ id: 'QHZ9W5', status: 'cancelled' }]);
    expect(row(AIRLINE.db, 'reservations', 'QHZ9W5')?.status).toBe('active');
    expect(out.db.flights).toBe(AIRLINE.db.flights);
    expect(diffDatabases(AIRLINE.db, out.db, AIRLINE.model)).toEqual(out.changes);
  });

  it('books a reservation: the fare is computed, CEL integers are stored as numbers, seats go down', () => {
    const out = ok(
      airlineCall('book_reservation', {
        user_id: 'mateo_alvarez_2446',
        flight_id: 'SW101-0521',
        cabin: 'economy',
        passengers: 2,
        total_baggages: 1,
        nonfree_baggages: 1,
        insurance: true,
        payment_id: 'credit_card_4359360',
      }),
    );
    const booked = row(out.db, 'reservations', 'NB1121');
    // Two economy fares of 244 plus insurance of 30 each, plus one extra bag of 50.
    expect(booked).toMatchObject({ amount: 598, trip_type: 'one_way', return_flight_id: null });
    expect(booked?.booked_hours_ago).toBe(0);
    expect(out.changes.map((c) => `${c.kind} ${c.table} ${c.key}`)).toEqual([
      'insert reservations NB1121',
      'update flights SW101-0521',
    ]);
    expect(out.changes[1] && describeChange(out.changes[1])).toBe(
      'flights SW101-0521: seats_economy 31 → 29',
    );
    expect(JSON.parse(out.result)).toEqual({ inserted: booked, updated: 1 });
  });

  it('fails a booking on a flight that does not exist, changing nothing', () => {
    const out = airlineCall('book_reservation', {
      user_id: 'mateo_alvarez_2446',
      flight_id: 'SW999-0101',
      cabin: 'economy',
      passengers: 1,
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: false,
      payment_id: 'credit_card_4359360',
    });
    expect(failure(out)).toMatch(
      /^"book_reservation" failed and changed nothing: effect 1 .*"origin"/,
    );
    expect(out.db).toBe(AIRLINE.db);
  });

  it('adds bags, issues a certificate and hands over to a person', () => {
    const bags = ok(
      airlineCall('update_reservation_baggages', {
        reservation_id: 'QHZ9W5',
        total_baggages: 3,
        nonfree_baggages: 1,
        payment_id: 'credit_card_4359360',
      }),
    );
    expect(bags.changes.map(describeChange)).toEqual([
      'reservations QHZ9W5: total_baggages 2 → 3, nonfree_baggages 0 → 1, amount 371 → 421',
    ]);
    const certificate = ok(
      airlineCall('send_certificate', {
        user_id: 'mateo_alvarez_2446',
        reservation_id: 'QHZ9W5',
        flight_id: 'SW914-0517',
        amount: 100,
      }),
    );
    expect(JSON.parse(certificate.result)).toMatchObject({
      inserted: { method: 'certificate', balance: 100, brand: null },
    });
    const handoff = ok(airlineCall('transfer_to_human_agents', { summary: 'Lost bag.' }));
    expect(row(handoff.db, 'handoffs', 'HO-6')).toEqual({
      id: 'HO-6',
      user_id: null,
      summary: 'Lost bag.',
      status: 'open',
      created_at: '2026-05-15T19:00:00Z',
    });
  });

  it('refuses arguments that break the parameter schema, before anything runs', () => {
    expect(failure(airlineCall('cancel_reservation', { reservation_id: 'QHZ9W5' }))).toBe(
      'The arguments of "cancel_reservation" do not fit its parameters: "reason" is missing.',
    );
    expect(
      failure(airlineCall('cancel_reservation', { reservation_id: 'QHZ9W5', reason: 'bored' })),
    ).toContain('"reason" must be one of "change_of_plans", "airline_cancelled"');
    expect(
      failure(airlineCall('search_flights', { origin: 'JFK', destination: 'LAX', date: 'May 21' })),
    ).toContain('"date" must match format "date"');
  });

  it('calculates, and names the tools when asked for one that does not exist', () => {
    expect(ok(airlineCall('calculate', { a: 3, operator: '*', b: 200 })).result).toBe('600');
    const error = failure(airlineCall('cancel_reservations', {}));
    expect(error).toMatch(
      /^There is no tool named "cancel_reservations". Did you mean "cancel_reservation"\?/,
    );
    expect(error).toContain('get_user_details');
  });
});

const ITEMS = `tables:
  - name: items
    key: id
    columns:
      id: { type: string }
      qty: { type: integer }
      status: { type: string, enum: [new, done] }
      note: { type: string, nullable: true }
    rows:
      - { id: a, qty: 1, status: new, note: null }
      - { id: b, qty: 5, status: done, note: null }
      - { id: c, qty: 9, status: done, note: hi }
`;

const ID = '{ type: object, properties: { id: { type: string } }, required: [id] }';

const TOOLS = `tools:
  - { name: find, description: d, kind: read, parameters: { type: object, properties: { min: { type: integer } }, required: [min] },
      effects: [{ select: items, where: row.qty >= args.min }] }
  - { name: add, description: d, kind: write, parameters: ${ID},
      effects: [{ insert: items, values: { id: args.id, qty: 'size(db.items) * 2', status: '"new"' } }] }
  - { name: bump, description: d, kind: write, parameters: ${ID},
      effects: [{ update: items, where: row.id == args.id, set: { qty: int(row.qty) + 1 } }] }
  - { name: clear_done, description: d, kind: write, parameters: { type: object },
      effects: [{ delete: items, where: row.status == "done" }] }
  - { name: add_then_break, description: d, kind: write, parameters: ${ID},
      effects: [{ insert: items, values: { id: args.id, qty: '1', status: '"new"' } },
                { update: items, where: row.id == "a", set: { status: '"lost"' } }] }
  - { name: rekey, description: d, kind: write, parameters: ${ID},
      effects: [{ update: items, where: row.id == args.id, set: { id: '"z"' } }] }
  - { name: not_bool, description: d, kind: read, parameters: { type: object },
      effects: [{ select: items, where: row.qty }] }
  - { name: bad_cel, description: d, kind: read, parameters: { type: object },
      effects: [{ select: items, where: 'row.qty >' }] }
  - { name: reads_missing, description: d, kind: read, parameters: { type: object },
      effects: [{ select: items, where: row.id == args.nope }] }
  - { name: insert_then_count, description: d, kind: write, parameters: ${ID},
      effects: [{ insert: items, values: { id: args.id, qty: '0', status: '"new"' } }, { select: items, where: 'true' }] }
  - { name: churn, description: d, kind: write, parameters: ${ID},
      effects: [{ insert: items, values: { id: args.id, qty: '0', status: '"new"' } },
                { update: items, where: row.id == args.id || row.id == "a", set: { qty: '7' } },
                { delete: items, where: row.id == "a" }] }
  - { name: fleeting, description: d, kind: write, parameters: ${ID},
      effects: [{ insert: items, values: { id: args.id, qty: '0', status: '"new"' } }, { delete: items, where: row.id == args.id }] }
  - { name: clock, description: d, kind: read, parameters: { type: object }, effects: [], returns: now }
  - { name: numbers, description: d, kind: read, parameters: { type: object }, effects: [], returns: '[1, 2, 3].map(x, x * 2)' }
  - { name: all, description: d, kind: read, parameters: { type: object }, effects: [{ select: items, where: 'true' }] }
  - { name: echo, description: d, kind: read, parameters: { type: object, properties: { text: { type: string } } }, effects: [], returns: args.text }
  - { name: loose, description: d, kind: read, parameters: { type: objekt, required: [id] }, effects: [], returns: '"ran"' }
`;

const SMALL = (() => {
  const model = modelOf(TOOLS, ITEMS);
  return { model, db: seedDatabase(model).db };
})();

function call(tool: string, args: Record<string, unknown> = {}, db: Database = SMALL.db) {
  return runTool(SMALL.model, db, { tool, args }, { now: NOW });
}

describe('runTool effects', () => {
  it('selects with a where over row and args', () => {
    expect(JSON.parse(ok(call('find', { min: 5 })).result)).toEqual([
      { id: 'b', qty: 5, status: 'done', note: null },
      { id: 'c', qty: 9, status: 'done', note: 'hi' },
    ]);
  });

  it('inserts: CEL integers become numbers, left-out nullable columns null, the row is shown', () => {
    const out = ok(call('add', { id: 'd' }));
    const added = { id: 'd', qty: 6, status: 'new', note: null };
    expect(out.db.items?.at(-1)).toEqual(added);
    expect(typeof out.db.items?.at(-1)?.qty).toBe('number');
    expect(JSON.parse(out.result)).toEqual({ inserted: added });
    expect(out.changes).toEqual([{ table: 'items', key: 'd', kind: 'insert', after: added }]);
  });

  it('updates and deletes, reporting counts when there is nothing to return', () => {
    const bumped = ok(call('bump', { id: 'b' }));
    expect(bumped.result).toBe('{"updated":1}');
    expect(bumped.changes.map(describeChange)).toEqual(['items b: qty 5 → 6']);
    expect(ok(call('bump', { id: 'nope' })).result).toBe('{"updated":0}');
    const cleared = ok(call('clear_done'));
    expect(cleared.result).toBe('{"deleted":2}');
    expect(cleared.db.items?.map((r) => r.id)).toEqual(['a']);
    expect(cleared.changes.map((c) => `${c.kind} ${c.key}`)).toEqual(['delete b', 'delete c']);
  });

  it('lets a later effect see what an earlier one wrote', () => {
    const out = ok(call('insert_then_count', { id: 'e' }));
    expect((JSON.parse(out.result) as Row[]).map((r) => r.id)).toEqual(['a', 'b', 'c', 'e']);
  });

  it('reports the net change of each row a call touched more than once', () => {
    const churned = ok(call('churn', { id: 'x' }));
    expect(churned.changes.map(describeChange)).toEqual([
      'items x: inserted (id "x", qty 7, status "new", note null)',
      'items a: deleted',
    ]);
    expect(churned.changes).toEqual(diffDatabases(SMALL.db, churned.db, SMALL.model).reverse());
    const fleeting = ok(call('fleeting', { id: 'y' }));
    expect(fleeting.changes).toEqual([]);
    expect(fleeting.db.items).toEqual(SMALL.db.items);
    expect(JSON.parse(fleeting.result)).toMatchObject({ deleted: 1, inserted: { id: 'y' } });
  });

  it('is all or nothing: a bad row, a repeated key or a changed key changes nothing', () => {
    const broken = call('add_then_break', { id: 'x' });
    expect(failure(broken)).toContain(
      'effect 2 (update items) would leave row a not fitting: "status" must be one of "new", "done", not "lost".',
    );
    expect(broken.db).toBe(SMALL.db);
    expect(failure(call('add', { id: 'a' }))).toContain('"items" already has a row with id a.');
    expect(failure(call('rekey', { id: 'a' }))).toContain('may not change the key "id" of row a');
    expect(SMALL.db.items?.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('fails with a reason when a condition is not true or false, not CEL, or reads a missing argument', () => {
    expect(failure(call('not_bool'))).toContain('its "where" gave 1, not true or false.');
    expect(failure(call('bad_cel'))).toContain('its "where" is not valid CEL');
    expect(failure(call('reads_missing'))).toContain('needs "nope", which is missing.');
  });

  it('shows returns values as JSON: the clock as a timestamp, integers as numbers', () => {
    expect(ok(call('clock')).result).toBe('"2026-05-15T19:00:00.000Z"');
    expect(ok(call('numbers')).result).toBe('[2,4,6]');
  });

  it('checks arguments, and runs a tool whose schema is broken rather than blame the agent', () => {
    expect(failure(call('find', { min: 'two' }))).toBe(
      'The arguments of "find" do not fit its parameters: "min" must be integer.',
    );
    expect(failure(call('find', ['x'] as unknown as Record<string, unknown>))).toBe(
      'The arguments of "find" must be a JSON object.',
    );
    expect(ok(call('loose')).result).toBe('"ran"');
  });

  it('caps a long result at the limit, keeping whole rows and saying how many were left out', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      id: `row-${i}`,
      qty: i,
      status: 'new',
      note: 'x'.repeat(40),
    }));
    const out = ok(call('all', {}, { items: many }));
    expect(out.result.length).toBeLessThanOrEqual(TOOL_RESULT_LIMIT);
    const shown = JSON.parse(out.result) as unknown[];
    const note = shown.at(-1);
    expect(shown[0]).toEqual(many[0]);
    expect(note).toBe(
      `... ${500 - (shown.length - 1)} more of 500 items left out: the result passed ${TOOL_RESULT_LIMIT} characters. Ask for fewer.`,
    );
    const long = runTool(
      SMALL.model,
      SMALL.db,
      { tool: 'echo', args: { text: 'x'.repeat(500) } },
      { now: NOW, resultLimit: 100 },
    );
    const text = ok(long).result;
    expect(text).toMatch(
      /^"x+ \.\.\. \[cut: the result was 502 characters, over the limit of 100\]$/,
    );
    expect(text).toHaveLength(100);
  });

  it('gives the same outcome for the same inputs', () => {
    expect(call('add', { id: 'q' })).toEqual(call('add', { id: 'q' }));
  });
});

describe('runTool properties', () => {
  const statuses = fc.constantFrom('new', 'done', 'lost');
  const PROPERTY_TOOLS = `tools:
  - { name: set_item, description: d, kind: write,
      parameters: { type: object, properties: { id: { type: string }, qty: { type: integer }, status: { type: string } }, required: [id, qty, status] },
      effects: [{ update: items, where: row.id == args.id, set: { qty: args.qty, status: args.status } }] }
  - { name: add, description: d, kind: write,
      parameters: { type: object, properties: { id: { type: string }, qty: { type: integer }, status: { type: string } }, required: [id, qty, status] },
      effects: [{ insert: items, values: { id: args.id, qty: args.qty, status: args.status } }] }
  - { name: drop, description: d, kind: write, parameters: ${ID},
      effects: [{ delete: items, where: row.id == args.id }] }
`;
  const model = modelOf(PROPERTY_TOOLS, ITEMS);
  const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e');
  const calls = fc.oneof(
    fc.record({
      tool: fc.constant('set_item'),
      args: fc.record({ id: ids, qty: fc.integer({ min: -5, max: 50 }), status: statuses }),
    }),
    fc.record({
      tool: fc.constant('add'),
      args: fc.record({ id: ids, qty: fc.integer({ min: -5, max: 50 }), status: statuses }),
    }),
    fc.record({ tool: fc.constant('drop'), args: fc.record({ id: ids }) }),
  );
  const byRow = (a: RowChange, b: RowChange) => a.key.localeCompare(b.key);

  it('reports exactly the changes a diff of the databases finds; a failed call changes nothing', () => {
    fc.assert(
      fc.property(fc.array(calls, { minLength: 1, maxLength: 8 }), (sequence) => {
        let db = seedDatabase(model).db;
        for (const next of sequence) {
          const frozen = JSON.stringify(db);
          const out = runTool(model, db, next, { now: NOW });
          expect(JSON.stringify(db)).toBe(frozen);
          if (!out.ok) {
            expect(out.db).toBe(db);
            continue;
          }
          if (out.changes.length === 0) expect(out.db).toBe(db);
          expect([...out.changes].sort(byRow)).toEqual(
            diffDatabases(db, out.db, model).sort(byRow),
          );
          if (next.tool === 'set_item') {
            const target = db.items?.find((r) => r.id === next.args.id);
            const expected =
              target && (target.qty !== next.args.qty || target.status !== next.args.status);
            expect(out.changes).toHaveLength(expected ? 1 : 0);
          }
          db = out.db;
        }
        expect(db.items?.every((r) => r.status === 'new' || r.status === 'done')).toBe(true);
      }),
      { seed: 6, numRuns: 300 },
    );
  });
});

describe('withDefaults', () => {
  const parameters = {
    type: 'object',
    properties: { format: { type: 'string', default: 'paper' }, days: { default: [14] }, card: {} },
  };

  it('gives a left-out argument its default, a copy of it, and leaves given ones alone', () => {
    const filled = withDefaults(parameters, { card: 'C-1' });
    expect(filled).toEqual({ card: 'C-1', format: 'paper', days: [14] });
    expect(filled.days).not.toBe(parameters.properties.days.default);
    expect(withDefaults(parameters, { format: 'ebook', days: [3] })).toEqual({
      format: 'ebook',
      days: [3],
    });
    const none = { card: 'C-1', format: 'ebook', days: [1] };
    expect(withDefaults(parameters, none)).toBe(none);
  });

  it('leaves out an argument whose default is null (Python’s None): effects test has()', () => {
    const optional = { type: 'object', properties: { note: { type: 'string', default: null } } };
    expect(withDefaults(optional, {})).toEqual({});
  });
});
