import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsv } from './csv.ts';
import type { ImportedTable, ImportedTask } from './domain.ts';
import { sliceTables } from './slice.ts';
import { inferSchema, tableFromCollection } from './tables.ts';

const quote = (cell: string) =>
  /[",\r\n]/.test(cell) || cell === '' ? `"${cell.replace(/"/g, '""')}"` : cell;

describe('readCsv', () => {
  it('reads back any table written with RFC 4180 quoting (property)', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', "'", '{'),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) =>
          fc.array(fc.array(cell, { minLength: n, maxLength: n }), {
            minLength: 1,
            maxLength: 6,
          }),
        ),
        (table) => {
          const text = table.map((row) => row.map(quote).join(',')).join('\n');
          const read = readCsv(text);
          expect(read.problems).toEqual([]);
          expect([read.header, ...read.rows]).toEqual(table);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names the line of a ragged row and an unclosed quote', () => {
    const read = readCsv('a,b\n1,2\n3\n"4,5\n');
    expect(read.problems).toEqual([
      { line: 4, message: 'A quoted cell is never closed; it runs to the end of the file.' },
      { line: 3, message: 'This row has 1 cells where the header names 2.' },
      { line: 4, message: 'This row has 1 cells where the header names 2.' },
    ]);
  });
});

describe('tables', () => {
  it('keys a map of rows by the field equal to the id, else adds an id column', () => {
    const keyed = tableFromCollection(
      'orders',
      { '#1': { order_id: '#1', n: 1 }, '#2': { order_id: '#2', n: 2.5 } },
      'db.json',
    );
    expect(keyed.table?.key).toBe('order_id');
    expect(keyed.table?.columns.find((c) => c.name === 'n')?.schema).toEqual({ type: 'number' });
    const unkeyed = tableFromCollection('tags', { red: { hex: 'f00' } }, 'db.json');
    expect(unkeyed.table?.key).toBe('id');
    expect(unkeyed.table?.rows).toEqual([{ id: 'red', hex: 'f00' }]);
    expect(tableFromCollection('bad', 3, 'db.json').notes[0]?.message).toMatch(
      /not a list or a map/,
    );
  });

  it('infers a schema every value fits (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), (values) => {
        const schema = inferSchema(values as never);
        for (const v of values) expect(fits(schema, v)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

/** A minimal JSON Schema check for what inferSchema writes (type, items, properties). */
function fits(schema: Record<string, unknown>, value: unknown): boolean {
  const types = schema.type === undefined ? undefined : ([] as unknown[]).concat(schema.type);
  const type =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value;
  if (types && !types.includes(type) && !(type === 'integer' && types.includes('number')))
    return false;
  if (Array.isArray(value))
    return value.every((v) => fits(schema.items as Record<string, unknown>, v));
  if (type === 'object')
    return Object.entries(value as object).every(([k, v]) =>
      fits(
        ((schema.properties ?? {}) as Record<string, Record<string, unknown>>)[k] ??
          (schema.additionalProperties as Record<string, unknown> | undefined) ??
          {},
        v,
      ),
    );
  return true;
}

describe('sliceTables', () => {
  const users: ImportedTable = {
    name: 'users',
    key: 'user_id',
    columns: [],
    rows: Array.from({ length: 50 }, (_, i) => ({
      user_id: `u${i}`,
      name: { first: `F${i}`, zip: `Z${i}` },
      orders: [`o${i}`],
    })),
    sourceRows: 50,
  };
  const orders: ImportedTable = {
    name: 'orders',
    key: 'order_id',
    columns: [],
    rows: Array.from({ length: 50 }, (_, i) => ({ order_id: `o${i}`, user_id: `u${i}` })),
    sourceRows: 50,
  };
  const task = (actions: ImportedTask['actions'], goal = ''): ImportedTask => ({
    id: 't',
    goal,
    knows: [],
    unknown: [],
    actions,
    communicate: [],
    nlAssertions: [],
    extras: [],
  });

  it('keeps rows the tasks name, rows found by their arguments, the rows those name, and a sample', () => {
    const { tables, notes } = sliceTables(
      [users, orders],
      [
        task([{ name: 'get_order', arguments: { order_id: 'o20' } }]),
        task([{ name: 'find', arguments: { first: 'F30', zip: 'Z30' } }], 'Where is order o40?'),
      ],
      { limit: 10, sample: 2 },
    );
    expect(tables[0]?.rows.map((r) => r.user_id)).toEqual(['u0', 'u1', 'u20', 'u30', 'u40']);
    expect(tables[1]?.rows.map((r) => r.order_id)).toEqual(['o0', 'o1', 'o20', 'o30', 'o40']);
    expect(notes.map((n) => n.message)).toEqual([
      'Sliced to 5 of 50 rows: the rows the tasks touch and a sample of 2.',
      'Sliced to 5 of 50 rows: the rows the tasks touch and a sample of 2.',
    ]);
  });

  it('keeps small tables whole', () => {
    expect(sliceTables([users], [], { limit: 50 }).tables[0]?.rows).toHaveLength(50);
  });
});
