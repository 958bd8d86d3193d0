import { describe, expect, it } from 'vitest';
import type { CarryNote } from './carry.ts';
import { planTables } from './database.ts';

describe('planTables', () => {
  it('keeps lists and objects as structured columns, and drops a schema some value does not fit', () => {
    const notes: CarryNote[] = [];
    const address = {
      type: 'object',
      properties: { street: { type: 'string' } },
      required: ['street'],
    };
    const [plan] = planTables(
      [
        {
          name: 'people',
          key: 'id',
          columns: [
            { name: 'id', schema: { type: 'string' }, required: true },
            { name: 'home', schema: address, required: true },
            { name: 'work', schema: address, required: true },
            {
              name: 'tags',
              schema: { anyOf: [{ type: 'array' }, { type: 'null' }] },
              required: false,
            },
          ],
          rows: [
            { id: 'a', home: { street: 'x' }, work: { street: 'y' }, tags: ['t'] },
            { id: 'b', home: { street: 'z' }, work: {}, tags: null },
          ],
          sourceRows: 2,
        },
      ],
      notes,
    );
    expect(plan?.columns.map((c) => [c.name, c.spec.type, c.spec.schema !== undefined])).toEqual([
      ['id', 'string', false],
      ['home', 'object', true],
      ['work', 'object', false],
      ['tags', 'array', true],
    ]);
    expect(plan?.rows[1]).toEqual({ id: 'b', home: { street: 'z' }, work: {}, tags: null });
    expect(notes.map((n) => `${n.item}: ${n.message}`)).toEqual([
      expect.stringMatching(/^table people, column work: 1 value\(s\) do not fit .*lacks "street"/),
    ]);
  });

  it('makes a column nullable where a row has no value, and keeps an enum only when every value is in it', () => {
    const notes: CarryNote[] = [];
    const [plan] = planTables(
      [
        {
          name: 'Orders',
          key: 'id',
          columns: [
            { name: 'id', schema: { type: 'string' }, required: true },
            { name: 'total', schema: { type: 'number' }, required: true },
            { name: 'state', schema: { type: 'string', enum: ['open'] }, required: true },
            { name: 'Count', schema: { type: 'integer' }, required: true },
          ],
          rows: [
            { id: 'a', total: 1, state: 'open', Count: 1 },
            { id: 'b', state: 'shut', Count: 2.5 },
          ],
          sourceRows: 2,
        },
      ],
      notes,
    );
    expect(plan?.name).toBe('orders');
    expect(plan?.columns.map((c) => [c.name, c.spec])).toEqual([
      ['id', { type: 'string' }],
      ['total', { type: 'number', nullable: true }],
      ['state', { type: 'string' }],
      ['count', { type: 'string' }],
    ]);
    expect(plan?.rows[1]).toEqual({ id: 'b', total: null, state: 'shut', count: '2.5' });
    expect(notes.map((n) => n.message)).toEqual([
      '1 value(s) are not of type integer; the column holds them as text.',
    ]);
  });
});
