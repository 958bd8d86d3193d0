import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from '../../cel.ts';
import { readPythonModule } from '../python/module.ts';
import { inferSchema } from '../tables.ts';
import { tau2Tools } from '../tau2Tools.ts';
import { statedNow } from './clock.ts';
import type { ConditionScope } from './pyCondition.ts';
import { celOfPython } from './pyCondition.ts';

const order = {
  cel: 'db.orders.filter(r, r.id == args.order_id)[0]',
  collections: new Set(['items', 'tags']),
  table: 'orders',
  keyColumn: 'id',
  key: 'args.order_id',
  columns: new Set(['id', 'status', 'items', 'tags', 'total', 'address']),
};
const scope: ConditionScope = {
  args: new Set(['order_id', 'reason', 'item_ids', 'new_ids', 'amount', 'city']),
  listArgs: new Set(['item_ids', 'new_ids']),
  rows: new Map([['order', order]]),
  tables: new Map([['orders', { name: 'orders', key: 'id' }]]),
};

describe('celOfPython', () => {
  it.each([
    ['order_id not in self.db.orders', '!(db.orders.exists(r, r.id == args.order_id))'],
    ['order.status != "pending"', `${order.cel}.status != "pending"`],
    ['reason not in {"a", "b"}', '!(args.reason in ["a", "b"])'],
    ['reason not in ("a",)', '!(args.reason in ["a"])'],
    ['len(item_ids) != len(new_ids)', 'size(args.item_ids) != size(args.new_ids)'],
    [
      'not (amount > 0 and amount <= order.total)',
      `!(((args.amount > 0 && args.amount <= ${order.cel}.total)))`,
    ],
    [
      'order.status is None or order_id == "x"',
      `(${order.cel}.status == null || args.order_id == "x")`,
    ],
    ['reason in order.tags', `args.reason in ${order.cel}.tags`],
  ])('reads %s', (python, cel) => {
    expect(celOfPython(python, scope)).toBe(cel);
  });

  it.each([
    ['item_id not in item_ids', 'a loop variable'],
    ['"pending" in order.status', 'a substring test on a text column'],
    ['not self._is_pending(order)', 'a helper call'],
    ['isinstance(order, GiftCard)', 'a class test'],
    ['order.status != f"{reason}"', 'an f-string'],
    ['item_ids.count(order_id) > 1', 'a method call'],
    ['order_id not in self.db.users', 'a table the project lacks'],
  ])('leaves %s untranslated (%s)', (python) => {
    expect(celOfPython(python, scope)).toBeUndefined();
  });

  it('reads a field named with a word CEL keeps through brackets (found by the property below)', () => {
    expect(celOfPython('order.null == "x"', scope)).toBe(
      'db.orders.filter(r, r.id == args.order_id)[0]["null"] == "x"',
    );
  });

  it('never throws, and whatever it writes is CEL that compiles (property)', () => {
    const piece = fc.constantFrom(
      'order',
      'order_id',
      'item_ids',
      '.',
      'status',
      'not',
      'in',
      'and',
      'or',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ',',
      '==',
      '!=',
      '<',
      '0',
      '"a"',
      'len',
      'self',
      'db',
      'orders',
      'is',
      'None',
      'True',
      'x',
      '+',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const cel = celOfPython(pieces.join(' '), scope);
        if (cel !== undefined) expect(isCelProblem(compileCel(cel)), cel).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});

describe('tau2Tools helper conditions', () => {
  it("rewrites a helper's condition in the caller's terms, and leaves its own variables alone", () => {
    const source = [
      'class T:',
      '    def _user(self, user_id):',
      '        if user_id not in self.db.users:',
      '            raise ValueError("No user")',
      '        return self.db.users[user_id]',
      '    def _card(self, user_id, card_id):',
      '        user = self._user(user_id)',
      '        if card_id not in user.cards:',
      '            raise ValueError("No card")',
      '    @is_tool(ToolType.WRITE)',
      '    def pay(self, order_id: str, card_id: str):',
      '        """Pay."""',
      '        order = self.db.orders[order_id]',
      '        for x in order.items:',
      '            if x.gone:',
      '                raise ValueError("Gone")',
      '        self._card(order.user_id, card_id)',
    ].join('\n');
    const { tools } = tau2Tools(readPythonModule(source), { classes: new Map() } as never, 't.py');
    expect(
      tools[0]?.preconditions.map((p) => [p.message, p.condition, p.direct === true, p.via]),
    ).toEqual([
      ['Gone', 'x.gone', false, undefined],
      ['No user', 'order.user_id not in self.db.users', true, '_user'],
      ['No card', 'card_id not in user.cards', false, '_card'],
    ]);
  });
});

describe('statedNow', () => {
  it('reads the time a policy states, with its zone', () => {
    expect(statedNow('Note: the current time is 2024-05-15 15:00:00 EST.')?.now).toBe(
      '2024-05-15T15:00:00-05:00',
    );
    expect(statedNow('The current time is 2024-05-15T08:05Z')?.now).toBe('2024-05-15T08:05:00Z');
    expect(statedNow('Today is sunny. The current time is 2024-05-15 15:00.')).toBeUndefined();
    expect(statedNow('All times in the database are EST.')).toBeUndefined();
  });

  it('gives the instant stated, for any date, time and zone (property)', () => {
    const zones: Record<string, number> = { EST: -5, EDT: -4, PST: -8, UTC: 0, CDT: -5 };
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T23:59:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...Object.keys(zones)),
        (date, zone) => {
          const local = new Date(date.getTime() + (zones[zone] ?? 0) * 3600_000);
          const [day, time] = local.toISOString().split('T');
          const text = `The current time is ${day} ${time?.slice(0, 8)} ${zone}.`;
          const now = statedNow(text)?.now ?? '';
          expect(Date.parse(now)).toBe(Math.floor(date.getTime() / 1000) * 1000);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('inferSchema', () => {
  it("reads an object keyed by its values' ids as a map, not as fixed fields", () => {
    const schema = inferSchema([
      { pay_1: { id: 'pay_1', kind: 'card' } },
      { pay_2: { id: 'pay_2', kind: 'gift', balance: 5 } },
    ]);
    expect(schema.properties).toBeUndefined();
    expect(schema.additionalProperties).toMatchObject({
      type: 'object',
      required: ['id', 'kind'],
    });
    expect(inferSchema([{ city: 'a' }, { city: 'b' }]).properties).toEqual({
      city: { type: 'string' },
    });
  });
});
