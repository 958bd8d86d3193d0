import { describe, expect, it } from 'vitest';
import { endStateDifferences } from './endState.ts';
import type { Database, RowChange } from './events.ts';

const w1 = { id: 'W1', status: 'pending', total: 1057 };
const w2 = { id: 'W2', status: 'pending', total: 20 };
const start: Database = {
  orders: [w1, w2],
  users: [{ id: 'u1', orders: ['W1', 'W2'], note: null }],
};
const keys = new Map([
  ['orders', 'id'],
  ['users', 'id'],
]);
const update = (table: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
  ({ table, key: String(before.id), kind: 'update', before, after }) as RowChange;

describe('endStateDifferences', () => {
  const cancelled = { orders: { W1: { status: 'cancelled' } } };

  it('finds none when exactly the listed fields changed to the listed values', () => {
    const changes = [update('orders', w1, { ...w1, status: 'cancelled' })];
    expect(endStateDifferences(cancelled, changes, start, keys)).toEqual([]);
  });

  it('names a listed field with another value, and a listed row that never changed', () => {
    const wrong = [update('orders', w1, { ...w1, status: 'returned' })];
    expect(endStateDifferences(cancelled, wrong, start, keys).map((d) => d.text)).toEqual([
      'orders W1: status is "returned" where "cancelled" was expected',
    ]);
    expect(endStateDifferences(cancelled, [], start, keys).map((d) => d.text)).toEqual([
      'orders W1: status is "pending" where "cancelled" was expected',
    ]);
  });

  it('names a change nobody asked for: another row, or another field of a listed row', () => {
    const changes = [
      update('orders', w1, { ...w1, status: 'cancelled', total: 0 }),
      update('orders', w2, { ...w2, status: 'cancelled' }),
    ];
    expect(endStateDifferences(cancelled, changes, start, keys).map((d) => d.text)).toEqual([
      'orders W1: total is 0 where 1057 was expected',
      'orders W2 changed (status), where no change was expected',
    ]);
  });

  it('reads a row added, a row deleted, and null or absent fields alike', () => {
    const added: RowChange = {
      table: 'orders',
      key: 'W3',
      kind: 'insert',
      after: { id: 'W3', status: 'pending', total: 5 },
    };
    const deleted: RowChange = {
      table: 'orders',
      key: 'W2',
      kind: 'delete',
      before: w2,
    };
    const expected = {
      orders: { W3: { id: 'W3', status: 'pending', total: 5.0, gift: null }, W2: null },
    };
    expect(endStateDifferences(expected, [added, deleted], start, keys)).toEqual([]);
    expect(endStateDifferences(expected, [], start, keys).map((d) => d.text)).toEqual([
      'orders W3: is not there',
      'orders W2: is still there, where it was expected to be gone',
    ]);
    expect(endStateDifferences({}, [added], start, keys).map((d) => d.text)).toEqual([
      'orders W3 was added, where no change was expected',
    ]);
  });

  it('nets a row changed and changed back: no change at all', () => {
    const there = update('orders', w1, { ...w1, status: 'cancelled' });
    const back = update('orders', { ...w1, status: 'cancelled' }, w1);
    expect(endStateDifferences({}, [there, back], start, keys)).toEqual([]);
  });
});
