import { celSelect } from '../../../celVariables.ts';
import type { JsonSchema } from '../../domain.ts';
import type { PyExpr } from '../../python/expression.ts';
import { ValueReader } from './methods.ts';
import {
  type CelValue,
  type Frame,
  type Value,
  Unreadable,
  celName,
  itemSchema,
} from './values.ts';

/**
 * Comprehensions and searches: `[e for x in xs if c]`, `for key, row in xs.items()`, and
 * `next((e for x in xs if c), None)` as the first row or item found, or None.
 */
export abstract class ComprehensionReader extends ValueReader {
  /** A comprehension's list, its variable's CEL name, its filter and its item, read once. */
  protected over(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame) {
    if (gen.vars.length === 2) return this.overItems(gen, frame);
    if (gen.vars.length !== 1) throw new Unreadable('a comprehension that unpacks');
    const source = this.expr(gen.iter, frame);
    const list = this.list(source);
    const name = celName(gen.vars[0] ?? 'x');
    const locals = new Map(frame.locals);
    locals.set(gen.vars[0] ?? '', this.cel(name, [list], itemSchema(list.schema)));
    return this.overWith(gen, frame, { source, list, name, locals });
  }

  /**
   * `for key, value in xs.items()`: over a table, each row and the key it is kept under; over a
   * map, each key and its value.
   */
  private overItems(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame) {
    const [keyVar = '', valueVar = ''] = gen.vars;
    const call = gen.iter;
    if (
      call.t !== 'call' ||
      call.fn.t !== 'attr' ||
      call.fn.name !== 'items' ||
      call.args.length > 0
    )
      throw new Unreadable('a comprehension that unpacks anything but .items()');
    const source = this.expr(call.fn.obj, frame);
    const locals = new Map(frame.locals);
    if (source.k === 'table') {
      const list = this.list(source);
      const name = celName(valueVar);
      const row = this.cel(name, [list], itemSchema(list.schema));
      locals.set(valueVar, row);
      locals.set(keyVar, this.cel(celSelect(name, source.table.key), [row], { type: 'string' }));
      return this.overWith(gen, frame, { source, list, name, locals });
    }
    const map = this.celOf(source);
    if (map.schema?.type !== 'object')
      throw new Unreadable(`.items() of something that is not a map (line ${this.line})`);
    const name = celName(keyVar);
    const list = this.cel(`${map.cel}.map(${name}, ${name})`, [map], {
      type: 'array',
      items: { type: 'string' },
    });
    const values =
      typeof map.schema.additionalProperties === 'object'
        ? (map.schema.additionalProperties as JsonSchema)
        : undefined;
    locals.set(keyVar, this.cel(name, [list], { type: 'string' }));
    locals.set(valueVar, this.cel(`${map.cel}[${name}]`, [map, list], values));
    return this.overWith(gen, frame, { source: list, list, name, locals });
  }

  private overWith(
    gen: Extract<PyExpr, { t: 'comp' }>,
    frame: Frame,
    over: { source: Value; list: CelValue; name: string; locals: Map<string, Value> },
  ) {
    const { source, list, name, locals } = over;
    const inner: Frame = {
      ...frame,
      locals,
      scopes: [...(frame.scopes ?? []), { list: list.cel, as: name }],
    };
    const cond = gen.cond ? this.bool(this.expr(gen.cond, inner)) : undefined;
    const item = this.expr(gen.item, inner);
    return { source, list, name, cond, item };
  }

  protected comprehension(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame): Value {
    if (gen.kind !== 'list') throw new Unreadable(`a generator outside any(), all() or next()`);
    const { list, name, cond, item } = this.over(gen, frame);
    const value = this.celOf(item);
    const filtered = cond ? `${list.cel}.filter(${name}, ${cond.cel})` : list.cel;
    return this.cel(
      `${filtered}.map(${name}, ${value.cel})`,
      [list, value, ...(cond ? [cond] : [])],
      {
        type: 'array',
        ...(value.schema && { items: value.schema }),
      },
    );
  }

  /** `next((x for x in <list> if cond), None)`: the first such item, a live place when it is in a row. */
  protected next(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame): Value {
    const { source, list, name, cond, item } = this.over(gen, frame);
    // The first item's row (`next((self._get_bill(b) for b in ids if …), None)`): the row that
    // item names, the item being the first that meets the condition.
    if (cond && item.k === 'place' && item.steps.length === 0) {
      const first = `${list.cel}.filter(${name}, ${cond.cel})[0]`;
      const own = new RegExp(`(?<![.\\w])${name}\\b`, 'g');
      return {
        ...item,
        key: this.cel(item.key.cel.replace(own, first), [list, cond, item.key], item.key.schema),
        exists: `${list.cel}.exists(${name}, ${cond.cel})`,
      };
    }
    if (!cond) throw new Unreadable('a next() that is not a search');
    if (item.k !== 'cel' || item.cel !== name) {
      // The first item that meets the condition, made into what the generator gives; None when
      // there is none.
      const value = this.celOf(item);
      const found = `${list.cel}.exists(${name}, ${cond.cel})`;
      return this.cel(
        `(${found} ? ${list.cel}.filter(${name}, ${cond.cel}).map(${name}, ${value.cel})[0] : null)`,
        [list, cond, value],
        value.schema,
      );
    }
    const exists = `${list.cel}.exists(${name}, ${cond.cel})`;
    if (source.k === 'table') {
      // The first row that meets the condition, as a live row: looked up by its key, which is
      // the compared value itself when the condition compares the key.
      const table = source.table;
      const keyed = new RegExp(`^${name}\\.${table.key} == (.+)$`).exec(cond.cel)?.[1];
      // The compared value is the key: it reads what that value reads, not the whole table.
      const compared = cond.deps.find((d) => d.cel === keyed);
      const key =
        keyed !== undefined && !new RegExp(`\\b${name}\\b`).test(keyed)
          ? (compared ?? this.cel(keyed, [cond]))
          : this.cel(celSelect(`${list.cel}.filter(${name}, ${cond.cel})[0]`, table.key), [
              list,
              cond,
            ]);
      return { k: 'place', table, key, steps: [], exists };
    }
    if (source.k === 'place') {
      const schema = itemSchema(source.schema);
      return {
        k: 'place',
        table: source.table,
        key: source.key,
        steps: [...source.steps, { match: { name, cond } }],
        exists,
        ...(schema && { schema }),
      };
    }
    return this.cel(
      `${list.cel}.filter(${name}, ${cond.cel})[0]`,
      [list, cond],
      itemSchema(list.schema),
    );
  }
}
