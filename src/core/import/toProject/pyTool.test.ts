import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../analyze.ts';
import { compileCel, isCelProblem } from '../../cel.ts';
import { projectFromFiles } from '../../bundle.ts';
import { parseProject } from '../../format/parseProject.ts';
import { seedDatabase } from '../../sim/database.ts';
import type { Database } from '../../sim/events.ts';
import { runTool } from '../../sim/toolRuntime.ts';
import { readTau2Domain } from '../tau2.ts';
import { planTables } from './database.ts';
import { projectOfDomain } from './index.ts';
import { programOf } from './pyTool.ts';
import { fstringParts } from './pyTool/fstring.ts';
import type { JsonSchema } from '../domain.ts';

// A small shop written for these tests, in tau2-bench's shapes: vouchers refunded in a loop,
// lines swapped through a search, a total kept over two lists side by side.
const SHOP = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
  'testdata',
  'tau2-shop',
);

function shop() {
  const files = new Map<string, string>(
    ['policy.md', 'tasks.json', 'db.json', 'tools.py', 'data_model.py'].map((name) => [
      name,
      readFileSync(path.join(SHOP, name), 'utf8'),
    ]),
  );
  const domain = readTau2Domain('shop', files);
  const result = projectOfDomain(domain);
  const { model } = parseProject(projectFromFiles('shop', result.files).project);
  return { ...result, model, domain };
}

const row = (db: Database, table: string, key: string) =>
  db[table]?.find((r) => Object.values(r)[0] === key || r.basket_id === key || r.sku === key);

describe('write tools read whole (programOf, through the importer)', () => {
  const { files, model, notCarried } = shop();
  const tool = (name: string) => model.tools.find((t) => t.name === name);
  const call = (db: Database, name: string, args: Record<string, unknown>) =>
    runTool(model, db, { tool: name, args }, { now: '2026-01-01T00:00:00Z' });

  it('writes a project that checks without errors', () => {
    const errors = analyzeProject(projectFromFiles('shop', files).project).diagnostics.filter(
      (d) => d.severity === 'error',
    );
    expect(errors).toEqual([]);
  });

  it('refunds a voucher in a loop, only for voucher payments, and logs each refund', () => {
    const { db } = seedDatabase(model);
    const outcome = call(db, 'void_basket', { basket_id: 'b1' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(row(outcome.db, 'customers', 'c1')?.methods).toEqual({
      card_1: { source: 'card', id: 'card_1' },
      v_1: { source: 'voucher', id: 'v_1', balance: 18.25 },
    });
    const basket = row(outcome.db, 'baskets', 'b1');
    expect(basket?.state).toBe('void');
    expect(basket?.payments).toEqual([
      { kind: 'payment', amount: 8.25, method: 'v_1' },
      { kind: 'payment', amount: 5.75, method: 'card_1' },
      { kind: 'refund', amount: 8.25, method: 'v_1' },
      { kind: 'refund', amount: 5.75, method: 'card_1' },
    ]);
    // The source's own failure, checked before anything changes.
    const again = call(outcome.db, 'void_basket', { basket_id: 'b1' });
    expect(again).toMatchObject({ ok: false, error: 'Only an open basket can be voided' });
    expect(call(db, 'void_basket', { basket_id: 'b9' })).toMatchObject({
      ok: false,
      error: 'No such basket',
    });
  });

  it('swaps repeated lines one by one, in order, and settles the total of both lists', () => {
    const { db } = seedDatabase(model);
    const outcome = call(db, 'swap_lines', {
      basket_id: 'b1',
      skus: ['A', 'A'],
      new_skus: ['C', 'D'],
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const basket = row(outcome.db, 'baskets', 'b1');
    expect(basket?.lines).toEqual([
      { sku: 'C', price: 7.25 },
      { sku: 'B', price: 3 },
      { sku: 'D', price: 2 },
    ]);
    // (7.25 − 5.5) + (2 − 5.5) = −1.75: a refund of 1.75.
    expect(basket?.payments).toContainEqual({ kind: 'refund', amount: 1.75, method: 'card_1' });
    expect(basket?.note).toBe('swapped');
    expect(
      call(db, 'swap_lines', { basket_id: 'b1', skus: ['A'], new_skus: ['C', 'D'] }),
    ).toMatchObject({
      ok: false,
      error: 'The lists differ in length',
    });
    expect(call(db, 'swap_lines', { basket_id: 'b1', skus: ['Z'], new_skus: ['C'] })).toMatchObject(
      {
        ok: false,
        error: 'No such line',
      },
    );
    expect(call(db, 'swap_lines', { basket_id: 'b1', skus: ['B'], new_skus: ['Q'] })).toMatchObject(
      {
        ok: false,
        error: 'No such item',
      },
    );
  });

  it('carries the loop as for_each and the isinstance test as when', () => {
    const effects = tool('void_basket')?.effects ?? [];
    expect(effects.map((e) => [e.op, e.table, e.forEach !== undefined, e.when])).toEqual([
      [
        'update',
        'customers',
        true,
        'db.customers.filter(r, r.customer_id == db.baskets.filter(r, r.basket_id == args.basket_id)[0].customer_id)[0].methods[payment.method].source == "voucher"',
      ],
      ['update', 'baskets', false, undefined],
    ]);
  });

  it('reads a value before a change to the same row as it was, in one update', () => {
    const { db } = seedDatabase(model);
    const outcome = call(db, 'swap_then_charge', { basket_id: 'b1', sku: 'B', new_sku: 'D' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const basket = row(outcome.db, 'baskets', 'b1');
    expect(basket?.lines).toContainEqual({ sku: 'D', price: 3 });
    // The old line's price, read before the swap: 3, charged by card.
    expect(basket?.payments).toContainEqual({ kind: 'payment', amount: 3, method: 'card_1' });
    expect(tool('swap_then_charge')?.effects).toHaveLength(1);
  });

  it('keeps a fixed item read before its list grows, and refuses a count read before it grows', () => {
    const { db } = seedDatabase(model);
    const outcome = call(db, 'pay_again', { basket_id: 'b1', method_id: 'v_1' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(row(outcome.db, 'baskets', 'b1')?.payments).toContainEqual({
      kind: 'payment',
      amount: 8.25,
      method: 'v_1',
    });
    expect(row(outcome.db, 'customers', 'c1')?.methods).toMatchObject({ v_1: { balance: 1.75 } });
    expect(tool('pay_per_payment')?.effects).toEqual([]);
  });

  it('adds a row built from a model under the key the code computes, and counts on from there', () => {
    const { db } = seedDatabase(model);
    const baskets = db.baskets?.length ?? 0;
    const first = call(db, 'open_basket', { customer_id: 'c1', sku: 'A' });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const id = `b${baskets + 1}`;
    // A None default left out is null, as Python's keyword argument is.
    expect(row(first.db, 'baskets', id)).toEqual({
      basket_id: id,
      customer_id: 'c1',
      state: 'open',
      lines: [{ sku: 'A', price: 5.5 }],
      payments: [],
      note: null,
    });
    expect(row(first.db, 'catalog', 'A')?.stock).toBe(
      (row(db, 'catalog', 'A')?.stock as number) - 1,
    );
    const second = call(first.db, 'open_basket', { customer_id: 'c1', sku: 'A', note: 'gift' });
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(row(second.db, 'baskets', `b${baskets + 2}`)?.note).toBe('gift');
    expect(second.db.baskets).toHaveLength(baskets + 2);
    expect(call(db, 'open_basket', { customer_id: 'c9', sku: 'A' })).toMatchObject({
      ok: false,
      error: 'No such customer',
    });
  });

  it('leaves out a tool it cannot follow, and one whose reads and writes it would reorder, saying why', () => {
    const reasons = notCarried
      .filter((n) => n.notImported !== undefined)
      .map((n) => `${n.item}: ${n.notImported ?? ''}`);
    // swap_to_voucher reads a line's price, changes the line, then credits the old price to
    // another row: effects would read the price again after the change, so it is not carried.
    expect(reasons).toEqual([
      expect.stringMatching(
        /^tool swap_to_voucher: .*reads baskets\.lines before a change to it and uses it after/,
      ),
      expect.stringMatching(
        /^tool pay_per_payment: .*reads baskets\.payments before a change to it and uses it after/,
      ),
      expect.stringMatching(/^tool restock: .*it uses "while" \(line \d+\)/),
    ]);
    // A failure only a changed call can reach (the format would undo what Python keeps) is a
    // path not carried: a call that takes it is an error of the project, never a success.
    const { db: seeded } = seedDatabase(model);
    expect(call(seeded, 'pay_then_find', { basket_id: 'b1', method_id: 'v_1' }).ok).toBe(true);
    expect(call(seeded, 'pay_then_find', { basket_id: 'b1', method_id: 'nope' })).toMatchObject({
      ok: false,
      notImported: true,
    });
    expect(tool('pay_then_find')?.requires?.at(-1)).toMatchObject({
      notImported: true,
      error: expect.stringMatching(
        /fails \("No such method"\) after a change, which Python keeps/,
      ) as unknown,
    });
    expect(tool('restock')?.effects).toEqual([]);
    expect(tool('swap_to_voucher')?.effects).toEqual([]);
    // A call to one is never a success that changed nothing: it says the tool was not imported.
    const { db } = seedDatabase(model);
    const restocked = call(db, 'restock', {});
    expect(restocked).toMatchObject({ ok: false, notImported: true });
    expect(restocked.ok ? '' : restocked.error).toMatch(
      /^Tool "restock" was not imported: what it changes could not be read \(it uses "while"/,
    );
  });
});

describe('programOf on mangled bodies', () => {
  it('never throws: a body it cannot follow gives a reason (property)', () => {
    const source = readFileSync(path.join(SHOP, 'tools.py'), 'utf8');
    const lines = source.split('\n').filter((l) => l.startsWith('        ') && l.trim() !== '');
    const tables = planTables(shop().domain.tables, []);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...lines), { maxLength: 14 }),
        fc.array(fc.constantFrom('(', ')', ':', '[', ']', ' if', ' for x in', '.', '+=', '"'), {
          maxLength: 3,
        }),
        (body, junk) => {
          const text = `def tool(self, basket_id: str, skus: List[str]):\n${body.join('\n')}${junk.join('')}\n`;
          const out = programOf(
            text,
            {},
            { properties: { basket_id: {}, skus: { type: 'array' } } },
            tables,
          );
          expect('effects' in out || 'reason' in out).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('programOf on f-strings and whole tables', () => {
  const tables = planTables(shop().domain.tables, []);
  const table = tables[0];
  const read = (body: string, params: Record<string, JsonSchema> = { sku: { type: 'string' } }) =>
    programOf(`def tool(self, sku: str):\n${body}\n`, {}, { properties: params }, tables, 1, {
      returns: true,
    });

  it('reads an f-string as text and each part turned into text', () => {
    expect(fstringParts('id_{n + 1}: {{x}} {name!r} {v:.2f}')).toEqual([
      'id_',
      { expr: 'n + 1' },
      ': {x} ',
      { expr: 'name', spec: '!r' },
      ' ',
      { expr: 'v', spec: ':.2f' },
    ]);
    const out = read('    return f"sku-{sku}-{len(sku) + 1}"');
    expect(out).toMatchObject({
      returns: '"sku-" + args.sku + "-" + string((size(args.sku) + 1))',
    });
    // Python writes 3.0 where CEL writes 3: a float is written as Python writes it.
    expect(read('    return f"{round(len(sku) * 1.5, 2)} kg"')).toMatchObject({
      returns: 'decimalText(round((size(args.sku) * 1.5), 2)) + " kg"',
    });
    expect(read('    return f"{len(sku) * 1.5:.2f}"')).toMatchObject({
      returns: 'fixed((size(args.sku) * 1.5), 2)',
    });
    expect(read('    return f"{sku == \'A\'}"')).toMatchObject({
      returns: '(args.sku == "A" ? "True" : "False")',
    });
    expect(read('    return f"{sku:>8}"')).toMatchObject({
      reason: expect.stringMatching(/^an f-string part "\{sku:>8\}"/) as unknown,
    });
  });

  it('reads values whose Python type shows only at run time, and text as Python writes it', () => {
    const run = (returns: string, args: Record<string, unknown>) => {
      const compiled = compileCel(returns);
      if (isCelProblem(compiled)) throw new Error(compiled.message);
      return compiled.run({ args, db: {} });
    };
    const returnsOf = (body: string, params?: Record<string, JsonSchema>) => {
      const out = read(body, params);
      if (!('returns' in out) || typeof out.returns !== 'string')
        throw new Error(JSON.stringify(out));
      return out.returns;
    };
    // An f-string's escapes are decoded; a plain string joined to it keeps its braces as text.
    expect(run(returnsOf('    return f"a\\n{sku}" "{x}"'), { sku: 'Z' })).toBe('a\nZ{x}');
    // A part of no known type: Python's str() of what it is when the tool runs.
    const info = returnsOf('    return f"got {info}"', { info: {} });
    expect(run(info, { info: { k: "it's", n: 1.5, on: true, none: null } })).toBe(
      `got {'k': "it's", 'n': 1.5, 'on': True, 'none': None}`,
    );
    // A whole number may have been an int or a float in Python: an error, never a guess.
    expect(() => run(info, { info: 2 })).toThrow(/int or a float/);
    // Text has no `.value` in Python: read so, it was an Enum member, kept as its value.
    expect(returnsOf('    return sku.value')).toBe('args.sku');
    // A joined list is the whole list, however it was built.
    expect(run(returnsOf('    return " | ".join([sku] + [sku])'), { sku: 'Z' })).toBe('Z | Z');
  });

  it('reads a search over a table’s items() as the key of the first row found, or its failure', () => {
    const out = read(
      [
        '    for bid, basket in self.db.baskets.items():',
        '        if basket.customer_id == sku and basket.state == "paid":',
        '            return bid',
        '    raise ValueError("No paid basket")',
      ].join('\n'),
    );
    if (!('returns' in out) || typeof out.returns !== 'string')
      throw new Error(JSON.stringify(out));
    const db = { baskets: tables.find((t) => t.source === 'baskets')?.rows ?? [] };
    const compiled = compileCel(out.returns);
    if (isCelProblem(compiled)) throw new Error(compiled.message);
    expect(compiled.run({ args: { sku: 'c1' }, db })).toBe('b2');
    expect(out.requires.map((r) => r.error)).toEqual(['No paid basket']);
    const found = compileCel(out.requires[0]?.condition ?? 'false');
    if (isCelProblem(found)) throw new Error(found.message);
    expect([
      found.run({ args: { sku: 'c1' }, db }),
      found.run({ args: { sku: 'c9' }, db }),
    ]).toEqual([true, false]);
  });

  it('adds a row to a table, after which the new key reads from the row added', () => {
    const baskets = tables.find((t) => t.source === 'baskets');
    if (!baskets) throw new Error('the shop has baskets');
    const head = `    bid = f"b{len(self.db.baskets) + 1}"\n`;
    const model = `Basket(basket_id=bid, customer_id="c1", state="open", lines=[], payments=[])`;
    const added = read(
      `${head}    self.db.baskets[bid] = ${model}\n    self.db.baskets[bid].note = sku\n    return bid`,
    );
    expect(added).toMatchObject({
      effects: [
        // A dict's `d[k] = v` replaces an entry already there: that key's row goes first.
        { delete: baskets.name, where: 'row.basket_id == "b" + string((size(db.baskets) + 1))' },
        {
          insert: baskets.name,
          values: {
            basket_id: '"b" + string((size(db.baskets) + 1))',
            customer_id: '"c1"',
            state: '"open"',
            lines: '[]',
            payments: '[]',
          },
        },
        {
          update: baskets.name,
          where: 'row.basket_id == inserted.baskets.basket_id',
          set: { note: 'args.sku' },
        },
      ],
      returns: 'inserted.baskets.basket_id',
    });
    // A count made before the row was added, used after: Python's value is not the table's now.
    const n = `    n = len(self.db.baskets)\n`;
    expect(
      read(
        `${n}${head}    self.db.baskets[bid] = ${model}\n    self.db.baskets["b1"].note = n\n    return n`,
      ),
    ).toMatchObject({
      reason: expect.stringMatching(/before a change to it and uses it after/) as unknown,
    });
    // A row added under an `if`: that path is not carried (a call taking it is a project error).
    expect(
      read(`${head}    if sku == "A":\n        self.db.baskets[bid] = ${model}\n    return bid`),
    ).toMatchObject({
      effects: [],
      requires: [
        {
          condition: 'args.sku != "A"',
          not_imported: true,
          error: expect.stringMatching(/adds a row under an "if"/) as unknown,
        },
      ],
    });
    expect(
      read(`${head}    self.db.baskets[bid] = self.db.baskets["b1"]\n    return bid`),
    ).toMatchObject({
      reason: expect.stringMatching(/not a model built from fields/) as unknown,
    });
  });

  it('reads a whole table as its rows, and refuses it read before a change and used after', () => {
    if (!table) throw new Error('the shop has tables');
    const name = table.source;
    expect(read(`    return len(self.db.${name})`)).toMatchObject({
      returns: `size(db.${table.name})`,
    });
    expect(read(`    return list(self.db.${name}.values())`)).toMatchObject({
      returns: `db.${table.name}`,
    });
    const column = table.columns.find((c) => c.name !== table.key)?.name ?? '';
    const counted = read(
      `    n = list(self.db.${name}.values())\n    self.db.${name}[sku].${column} = n\n    self.db.${name}["other"].${column} = n\n    return n`,
    );
    expect(counted).toMatchObject({
      reason: expect.stringMatching(/before a change to it and uses it after/) as unknown,
    });
  });
});
