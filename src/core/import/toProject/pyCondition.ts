import { celSelect } from '../../celVariables.ts';
import type { PyToken } from '../python/tokenize.ts';
import { tokenizePython } from '../python/tokenize.ts';

/** A variable holding one row the tool looked up by key. */
export interface RowVariable {
  /** The row in CEL: `db.orders.filter(r, r.order_id == args.order_id)[0]`. */
  readonly cel: string;
  /** Its list and map columns. */
  readonly collections: ReadonlySet<string>;
  /** The table in the project, its key column, and the key's value in CEL. */
  readonly table: string;
  readonly keyColumn: string;
  readonly key: string;
  /** Every column of the table. */
  readonly columns: ReadonlySet<string>;
}

/** What the names of a Python condition stand for, in CEL. */
export interface ConditionScope {
  /** The tool's arguments (`order_id` reads `args.order_id`). */
  readonly args: ReadonlySet<string>;
  /** Arguments that are lists (`x in item_ids` is membership). */
  readonly listArgs: ReadonlySet<string>;
  /** Variables holding one row: the CEL for the row, and its list or map columns. */
  readonly rows: ReadonlyMap<string, RowVariable>;
  /** The source's tables by their name in `self.db.<name>`: the table and key in the project. */
  readonly tables: ReadonlyMap<string, { readonly name: string; readonly key: string }>;
  /** Variables holding a whole table by key (IntellAgent's `orders = data['orders']`). */
  readonly tableVariables?: ReadonlyMap<string, { readonly name: string; readonly key: string }>;
}

type Out = { cel: string; collection: boolean; table?: { name: string; key: string } };

const COMPARE = new Set(['==', '!=', '<', '>', '<=', '>=']);

/**
 * A Python condition (the test of an `if` above a `raise`) as a CEL expression over `args` and
 * `db`, for the few shapes that carry over: comparisons, `and`/`or`/`not`, `len(…)`, literals,
 * `x in self.db.table` (a row with that key exists), `x in <list or map column>`, arguments and
 * variables that hold a row the tool looked up by key. Undefined for anything else, so that no
 * condition is half-translated.
 */
export function celOfPython(condition: string, scope: ConditionScope): string | undefined {
  const { tokens, problems } = tokenizePython(condition);
  if (problems.length > 0) return undefined;
  const list = tokens.filter(
    (t) => t.type !== 'newline' && t.type !== 'eof' && t.type !== 'indent' && t.type !== 'dedent',
  );
  let at = 0;
  const peek = (offset = 0): PyToken | undefined => list[at + offset];
  const is = (value: string, offset = 0) => {
    const t = peek(offset);
    return t !== undefined && (t.type === 'op' || t.type === 'name') && t.value === value;
  };
  const expect = (value: string) => {
    if (!is(value)) throw new Untranslatable();
    at++;
  };

  const orExpr = (): Out => {
    let left = andExpr();
    while (is('or')) {
      at++;
      left = { cel: `(${left.cel} || ${andExpr().cel})`, collection: false };
    }
    return left;
  };
  const andExpr = (): Out => {
    let left = notExpr();
    while (is('and')) {
      at++;
      left = { cel: `(${left.cel} && ${notExpr().cel})`, collection: false };
    }
    return left;
  };
  const notExpr = (): Out => {
    if (is('not') && !is('in', 1)) {
      at++;
      return { cel: `!(${notExpr().cel})`, collection: false };
    }
    return comparison();
  };
  const comparison = (): Out => {
    const left = operand();
    const op = peek();
    if (op === undefined || op.value === ')' || op.value === 'and' || op.value === 'or')
      return left;
    if (COMPARE.has(op.value)) {
      at++;
      return { cel: `${left.cel} ${op.value} ${operand().cel}`, collection: false };
    }
    if (is('is')) {
      at++;
      const negated = is('not');
      if (negated) at++;
      expect('None');
      return { cel: `${left.cel} ${negated ? '!=' : '=='} null`, collection: false };
    }
    const negated = is('not') && is('in', 1);
    if (negated || is('in')) {
      at += negated ? 2 : 1;
      const right = operand();
      const test = right.table
        ? `db.${right.table.name}.exists(r, ${celSelect('r', right.table.key)} == ${left.cel})`
        : right.collection
          ? `${left.cel} in ${right.cel}`
          : undefined;
      if (test === undefined) throw new Untranslatable();
      return { cel: negated ? `!(${test})` : test, collection: false };
    }
    throw new Untranslatable();
  };
  const operand = (): Out => {
    let value = primary();
    for (;;) {
      if (is('.') && peek(1)?.type === 'name' && !value.table) {
        const field = peek(1)?.value ?? '';
        at += 2;
        const row = [...scope.rows.values()].find((r) => r.cel === value.cel);
        value = {
          cel: celSelect(value.cel, field),
          collection: row?.collections.has(field) ?? false,
        };
      } else if (
        is('[') &&
        peek(1)?.type === 'string' &&
        /^[a-z_][a-z0-9_]*$/.test(peek(1)?.value ?? '') &&
        peek(1)?.fstring !== true &&
        is(']', 2) &&
        !value.table
      ) {
        const field = peek(1)?.value ?? '';
        at += 3;
        const row = [...scope.rows.values()].find((r) => r.cel === value.cel);
        value = {
          cel: celSelect(value.cel, field),
          collection: row?.collections.has(field) ?? false,
        };
      } else if (is('[') && peek(1)?.type === 'number' && is(']', 2) && !value.table) {
        value = { cel: `${value.cel}[${peek(1)?.value ?? ''}]`, collection: false };
        at += 3;
      } else return value;
    }
  };
  /** `["a", "b"]`, `{"a", "b"}` or `("a", "b")` of strings and numbers, as a CEL list. */
  const literalList = (close: string): Out => {
    const items: string[] = [];
    while (!is(close)) {
      const item = peek();
      if (item?.type === 'string' && item.fstring !== true) items.push(JSON.stringify(item.value));
      else if (item?.type === 'number' && /^\d+(\.\d+)?$/.test(item.value)) items.push(item.value);
      else throw new Untranslatable();
      at++;
      if (!is(close)) expect(',');
    }
    at++;
    return { cel: `[${items.join(', ')}]`, collection: true };
  };
  const primary = (): Out => {
    const t = peek();
    if (t === undefined) throw new Untranslatable();
    at++;
    if (t.type === 'string' && t.fstring !== true)
      return { cel: JSON.stringify(t.value), collection: false };
    if (t.type === 'number' && /^\d+(\.\d+)?$/.test(t.value))
      return { cel: t.value, collection: false };
    if (t.type === 'op' && t.value === '(' && peek(1)?.value === ',' && peek()?.type !== 'name')
      return literalList(')');
    if (t.type === 'op' && t.value === '(') {
      const inner = orExpr();
      expect(')');
      return { cel: `(${inner.cel})`, collection: inner.collection };
    }
    if (t.type === 'op' && t.value === '[') return literalList(']');
    if (t.type === 'op' && t.value === '{') return literalList('}');
    if (t.type !== 'name') throw new Untranslatable();
    if (t.value === 'True' || t.value === 'False')
      return { cel: t.value === 'True' ? 'true' : 'false', collection: false };
    if (t.value === 'None') return { cel: 'null', collection: false };
    if (t.value === 'len' && is('(')) {
      at++;
      const inner = operand();
      expect(')');
      return { cel: `size(${inner.cel})`, collection: false };
    }
    if (t.value === 'self' && is('.') && is('db', 1) && is('.', 2) && peek(3)?.type === 'name') {
      const table = scope.tables.get(peek(3)?.value ?? '');
      at += 4;
      if (table === undefined) throw new Untranslatable();
      return { cel: `db.${table.name}`, collection: false, table };
    }
    if (t.value === 'data' && is('[') && peek(1)?.type === 'string' && is(']', 2)) {
      // IntellAgent's `data['members']`: the table itself.
      const table =
        scope.tableVariables === undefined ? undefined : scope.tables.get(peek(1)?.value ?? '');
      at += 3;
      if (table === undefined) throw new Untranslatable();
      return { cel: `db.${table.name}`, collection: false, table };
    }
    const whole = scope.tableVariables?.get(t.value);
    if (whole) return { cel: `db.${whole.name}`, collection: false, table: whole };
    const row = scope.rows.get(t.value);
    if (row) return { cel: row.cel, collection: false };
    if (scope.args.has(t.value))
      return { cel: `args.${t.value}`, collection: scope.listArgs.has(t.value) };
    throw new Untranslatable();
  };

  try {
    const out = orExpr();
    return at === list.length ? out.cel : undefined;
  } catch (error) {
    if (error instanceof Untranslatable) return undefined;
    throw error;
  }
}

class Untranslatable extends Error {}
