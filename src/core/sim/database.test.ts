import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectFromFiles } from '../bundle.ts';
import type { ProjectModel, Row, Table } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { PROJECT_FILES } from '../project.ts';
import { describeChange, diffDatabases, seedDatabase, validateRow } from './database.ts';
import { toPlain } from './plainValues.ts';

function airline(): ProjectModel {
  const files = Object.fromEntries(
    PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
  );
  return parseProject(projectFromFiles('Airline', files).project).model;
}

const TICKETS = `tables:
  - name: tickets
    key: id
    columns:
      id: { type: string }
      status: { type: string, enum: [open, closed] }
      priority: { type: integer }
      cost: { type: number }
      urgent: { type: boolean }
      note: { type: string, nullable: true }
    rows:
      - { id: T1, status: open, priority: 1, cost: 9.5, urgent: false, note: null }
      - { id: T2, status: closed, priority: 2, cost: 0, urgent: true }
`;

function tickets(): ProjectModel {
  return parseProject(projectFromFiles('Tickets', { 'database.yaml': TICKETS }).project).model;
}

function table(model: ProjectModel, name: string): Table {
  const found = model.tables.find((t) => t.name === name);
  if (!found) throw new Error(`no table ${name}`);
  return found;
}

describe('seedDatabase', () => {
  it('loads every seed row of the airline example, and every scenario adds its rows cleanly', () => {
    const model = airline();
    const { db, problems } = seedDatabase(model);
    expect(problems).toEqual([]);
    for (const t of model.tables) expect(db[t.name]).toHaveLength(t.rows.length);
    expect(model.scenarios.length).toBeGreaterThan(3);
    for (const scenario of model.scenarios) {
      const seeded = seedDatabase(model, scenario.rows);
      expect(seeded.problems, scenario.id).toEqual([]);
      const added = scenario.rows.reservations ?? [];
      for (const row of added) {
        expect(seeded.db.reservations).toContainEqual(row);
      }
    }
  });

  it('leaves out each bad scenario row with a problem naming its table, row and column', () => {
    const { db, problems } = seedDatabase(tickets(), {
      tickets: [
        { id: 'T3', status: 'open', priority: 3, cost: 1, urgent: false, note: 'fine' },
        { id: 'T4', status: 'pending', priority: 1, cost: 1, urgent: false },
        { id: 'T5', status: 'open', priority: 1.5, cost: 1, urgent: false },
        { id: 'T6', status: 'open', priority: 1, cost: 1, urgent: false, colour: 'red' },
        { id: 'T7', status: 'open', cost: 1, urgent: false },
        { id: 'T3', status: 'closed', priority: 1, cost: 1, urgent: true },
        // A generated scenario may hold anything; the type says rows, the data may not.
        'not a row' as unknown as Row,
      ],
      ticket: [{ id: 'X' }],
    });
    expect(db.tickets?.map((r) => r.id)).toEqual(['T1', 'T2', 'T3']);
    expect(problems).toEqual([
      'Scenario row 2 of "tickets" (id "T4") is left out: "status" must be one of "open", "closed", not "pending".',
      'Scenario row 3 of "tickets" (id "T5") is left out: "priority" must be an integer, not 1.5.',
      'Scenario row 4 of "tickets" (id "T6") is left out: "tickets" has no column "colour".',
      'Scenario row 5 of "tickets" (id "T7") is left out: This row of "tickets" lacks "priority" (integer).',
      'Scenario row 6 of "tickets" (id "T3") is left out: an earlier row already has id "T3".',
      'Scenario row 7 of "tickets" is left out: A row of "tickets" must be a map from column to value, not "not a row".',
      'The scenario\'s rows for "ticket" are left out: there is no such table. Did you mean "tickets"?',
    ]);
  });

  it('lets a scenario row replace the seed row with its key, and fills left-out nullable columns', () => {
    const replacement = { id: 'T1', status: 'closed', priority: 5, cost: 1, urgent: true };
    const { db, problems } = seedDatabase(tickets(), { tickets: [replacement] });
    expect(problems).toEqual([]);
    expect(db.tickets).toEqual([
      { ...replacement, note: null },
      { id: 'T2', status: 'closed', priority: 2, cost: 0, urgent: true, note: null },
    ]);
  });
});

describe('validateRow', () => {
  const t = () => table(tickets(), 'tickets');

  it('accepts a fitting row and judges CEL values in their stored form', () => {
    expect(
      validateRow(t(), { id: 'A', status: 'open', priority: 2, cost: 1, urgent: false }),
    ).toEqual([]);
    expect(
      validateRow(t(), { id: 'A', status: 'open', priority: 2n, cost: 3n, urgent: false }),
    ).toEqual([]);
  });

  it('names every column that is wrong', () => {
    expect(validateRow(t(), { id: 7, status: 'open', cost: 'x', urgent: false })).toEqual([
      '"id" must be a string, not 7.',
      '"cost" must be a number, not "x".',
      'This row of "tickets" lacks "priority" (integer).',
    ]);
    expect(validateRow(t(), null)).toEqual([
      'A row of "tickets" must be a map from column to value, not null.',
    ]);
  });
});

describe('toPlain', () => {
  it('turns CEL values into JSON', () => {
    expect(toPlain({ n: 3n, big: 2n ** 60n, when: new Date('2026-05-15T19:00:00Z') })).toEqual({
      n: 3,
      big: '1152921504606846976',
      when: '2026-05-15T19:00:00.000Z',
    });
    expect(toPlain([new Map([['a', 1n]]), Infinity, undefined])).toEqual([
      { a: 1 },
      'Infinity',
      null,
    ]);
  });
});

describe('diffDatabases', () => {
  const model = tickets();
  const { db: before } = seedDatabase(model);
  const rows = before.tickets ?? [];

  it('matches rows by key, not position, and reports fields before and after', () => {
    const [t1, t2] = rows;
    if (!t1 || !t2) throw new Error('seed');
    const t3 = { id: 'T3', status: 'open', priority: 1, cost: 2, urgent: false, note: null };
    const after = { tickets: [t3, { ...t2, status: 'open', note: 'reopened' }] };
    expect(diffDatabases(before, after, model)).toEqual([
      { table: 'tickets', key: 'T1', kind: 'delete', before: t1 },
      {
        table: 'tickets',
        key: 'T2',
        kind: 'update',
        before: t2,
        after: { ...t2, status: 'open', note: 'reopened' },
      },
      { table: 'tickets', key: 'T3', kind: 'insert', after: t3 },
    ]);
  });

  it('finds nothing when only the order or the object identity changed', () => {
    const copy = { tickets: [...rows].reverse().map((r) => ({ ...r })) };
    expect(diffDatabases(before, copy, model)).toEqual([]);
    expect(diffDatabases(before, before, model)).toEqual([]);
  });
});

describe('describeChange', () => {
  it('shows only the changed fields of an update', () => {
    const before = { id: 'ABC123', status: 'active', amount: 420 };
    expect(
      describeChange({
        table: 'reservations',
        key: 'ABC123',
        kind: 'update',
        before,
        after: { ...before, status: 'cancelled' },
      }),
    ).toBe('reservations ABC123: status "active" → "cancelled"');
  });

  it('lists an inserted row and names a deleted one', () => {
    const row = { id: 'HO-6', summary: 'help', user_id: null };
    expect(describeChange({ table: 'handoffs', key: 'HO-6', kind: 'insert', after: row })).toBe(
      'handoffs HO-6: inserted (id "HO-6", summary "help", user_id null)',
    );
    expect(describeChange({ table: 'handoffs', key: 'HO-6', kind: 'delete', before: row })).toBe(
      'handoffs HO-6: deleted',
    );
  });
});
