import type { PyExpr } from '../../python/expression.ts';
import {
  type CelValue,
  type Frame,
  type Place,
  Unreadable,
  type Value,
  isStructured,
  mapLiteral,
} from './values.ts';
import { ChangeReader } from './changes.ts';

// Statements that change a value: assignments (to locals, fields, rows, models kept in
// locals), augmented assignments, appends; below the branch layer (`branches.ts`).

/** Reads assignments, `+=` and appends (see the top of the file). */
export abstract class AssignReader extends ChangeReader {
  protected readonly accumulated = new WeakSet<CelValue>();

  protected assign(target: PyExpr, value: Value, frame: Frame): void {
    if (target.t === 'tuple') {
      // `a, b = …`: a tuple item by item; a list by index.
      target.items.forEach((item, i) => {
        const part: Value =
          value.k === 'tuple'
            ? (value.items[i] ?? { k: 'unset', why: 'a tuple unpacked unevenly' })
            : this.cel(`${this.celOf(value).cel}[${i}]`, [this.celOf(value)]);
        this.assign(item, part, frame);
      });
      if (value.k === 'tuple' && value.items.length !== target.items.length)
        throw new Unreadable(`a tuple unpacked unevenly (line ${this.line})`);
      return;
    }
    if (target.t === 'name') {
      // A scalar read off a row is a copy in Python; a list or object stays a live reference.
      frame.locals.set(
        target.name,
        value.k === 'place' && !isStructured(value.schema) && value.exists === undefined
          ? this.read(value)
          : value,
      );
      return;
    }
    if (target.t === 'attr') {
      this.setField(target, value, frame);
      return;
    }
    if (target.t === 'index') {
      const table = this.expr(target.obj, frame);
      if (table.k === 'table') {
        this.insert(table.table, this.celOf(this.expr(target.index, frame)), value, frame);
        return;
      }
    }
    throw new Unreadable(`it assigns to "${target.t}" (line ${this.line})`);
  }

  protected setField(target: Extract<PyExpr, { t: 'attr' }>, value: Value, frame: Frame): void {
    if (this.changeLocalModel(target, frame, () => this.celOf(value))) return;
    // A field of a column this change has just set whole (`d.vpn = VpnDetails(…)`, then
    // `d.vpn.performance = …`): the column's new value with that field replaced.
    if (target.obj.t === 'attr') {
      const row = this.expr(target.obj.obj, frame);
      const column = target.obj.name;
      if (row.k === 'place' && row.steps.length === 0 && this.pending(row, column) !== undefined) {
        const next = this.celOf(value);
        this.write(
          row,
          column,
          (current) =>
            this.cel(`merge(${current.cel}, ${mapLiteral([[target.name, next.cel]])})`, [
              current,
              next,
            ]),
          frame,
        );
        return;
      }
    }
    const owner = this.placeOf(target.obj, frame, 'sets a field of');
    this.write(owner, target.name, () => this.celOf(value), frame);
  }

  /**
   * A field of a model the body built and keeps in a local (`bill = Bill(…)`, then
   * `bill.total_due += amount` before it is added): the local is the model with that field
   * changed. Tells whether `target` was such a field.
   */
  protected changeLocalModel(
    target: Extract<PyExpr, { t: 'attr' }>,
    frame: Frame,
    next: (current: CelValue) => CelValue,
  ): boolean {
    if (target.obj.t !== 'name') return false;
    const local = frame.locals.get(target.obj.name);
    if (local?.k !== 'cel' || local.fields === undefined) return false;
    const current = local.fields.get(target.name) ?? this.cel('null', []);
    const fields = new Map(local.fields).set(target.name, next(current));
    const cel = mapLiteral([...fields].map(([k, v]) => [k, v.cel]));
    frame.locals.set(target.obj.name, {
      ...this.cel(cel, [...fields.values()], local.schema),
      fields,
    });
    return true;
  }

  /** What `expr` names, which must be in the database: a row or something inside one. */
  protected placeOf(expr: PyExpr, frame: Frame, doing: string): Place {
    const owner = this.expr(expr, frame);
    if (owner.k !== 'place')
      throw new Unreadable(`it ${doing} something not in the database (line ${this.line})`);
    return owner;
  }

  protected augment(target: PyExpr, op: '+' | '-' | '*' | '/', right: PyExpr, frame: Frame): void {
    if (target.t === 'name') {
      const old = frame.locals.get(target.name);
      if (old === undefined || old.k !== 'cel')
        throw new Unreadable(`"${target.name}" is changed before it is set`);
      const value = this.celOf(this.expr(right, frame));
      if (frame.loop && !frame.dry) {
        if (op === '*' || op === '/')
          throw new Unreadable(`"${target.name}" is multiplied in a loop (line ${this.line})`);
        // A running total over the loop: the first value plus the sum of each item's part.
        const loop = frame.loop;
        const when = frame.when.length > 0 ? this.all(frame.when) : undefined;
        const list = when ? `${loop.list}.filter(${loop.as}, ${when.cel})` : loop.list;
        const part = `sum(${list}.map(${loop.as}, ${value.cel}))`;
        const zero = /^0(\.0)?$/.test(old.cel);
        const total = this.cel(
          zero && op === '+' ? part : `${old.cel} ${op} ${part}`,
          [old, value, ...(when ? [when] : [])],
          undefined,
          'double',
        );
        this.accumulated.add(total);
        frame.locals.set(target.name, total);
        return;
      }
      // Under an `if`, the branch's end makes the change conditional (see `branch`).
      frame.locals.set(target.name, this.arith(old, op, value));
      return;
    }
    if (target.t === 'attr') {
      const amount = this.expr(right, frame);
      if (
        this.changeLocalModel(target, frame, (current) =>
          this.arith(current, op, this.celOf(amount)),
        )
      )
        return;
      const owner = this.placeOf(target.obj, frame, 'changes a field of');
      this.write(
        owner,
        target.name,
        (current) => this.arith(current, op, this.celOf(amount)),
        frame,
      );
      return;
    }
    throw new Unreadable(`it changes "${target.t}" (line ${this.line})`);
  }

  /** `x.append(v)` / `x.extend(list)` on a list column, or on a local list built up in a loop. */
  protected extend(objExpr: PyExpr, method: string, args: readonly PyExpr[], frame: Frame): void {
    const [arg] = args;
    if (arg === undefined || args.length !== 1)
      throw new Unreadable(`a ${method} with ${args.length} arguments`);
    const value = this.celOf(this.expr(arg, frame));
    const added = method === 'append' ? this.cel(`[${value.cel}]`, [value]) : value;
    if (objExpr.t === 'name') {
      const old = frame.locals.get(objExpr.name);
      if (old?.k !== 'cel')
        throw new Unreadable(`it adds to "${objExpr.name}", which is not a list it built`);
      if (frame.loop && !frame.dry) {
        // Each item is read from the list as it was before the loop: one that reads the list
        // being built (`out.append(len(out))`) would be read wrong.
        if (names(arg).has(objExpr.name))
          throw new Unreadable(
            `"${objExpr.name}" is read while a loop builds it (line ${this.line})`,
          );
        const loop = frame.loop;
        const when = frame.when.length > 0 ? this.all(frame.when) : undefined;
        const list = when ? `${loop.list}.filter(${loop.as}, ${when.cel})` : loop.list;
        if (method !== 'append') throw new Unreadable('a list extended in a loop');
        const built = `${list}.map(${loop.as}, ${value.cel})`;
        const total = this.cel(old.cel === '[]' ? built : `${old.cel} + ${built}`, [old, value]);
        this.accumulated.add(total);
        frame.locals.set(objExpr.name, total);
        return;
      }
      // Under an `if`, the branch's end makes the growth conditional (see `branch`).
      frame.locals.set(objExpr.name, this.cel(`${old.cel} + ${added.cel}`, [old, added]));
      return;
    }
    if (objExpr.t !== 'attr') throw new Unreadable(`it adds to something not in the database`);
    if (
      this.changeLocalModel(objExpr, frame, (current) =>
        this.cel(`${current.cel} + ${added.cel}`, [current, added]),
      )
    )
      return;
    // `self.db.<table>.append(Model(…))` on a table kept as a list: a new row.
    const list = this.expr(objExpr, frame);
    if (list.k === 'table' && method === 'append') {
      const row = this.expr(arg, frame);
      const key = row.k === 'cel' ? row.fields?.get(list.table.key) : undefined;
      if (key === undefined)
        throw new Unreadable(
          `it appends to ${list.table.source} a row without its ${list.table.key} (line ${this.line})`,
        );
      this.insert(list.table, key, row, frame, false);
      return;
    }
    const owner = this.placeOf(objExpr.obj, frame, 'adds to a list of');
    this.write(
      owner,
      objExpr.name,
      (current) => this.cel(`${current.cel} + ${added.cel}`, [current, added]),
      frame,
      true,
    );
  }
}

/** Every name an expression reads (attribute names and keyword names aside). */
function names(e: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(e)) for (const item of e) names(item, into);
  else if (e !== null && typeof e === 'object') {
    const node = e as Record<string, unknown>;
    if (node.t === 'name' && typeof node.name === 'string') into.add(node.name);
    for (const value of Object.values(node)) if (typeof value === 'object') names(value, into);
  }
  return into;
}
