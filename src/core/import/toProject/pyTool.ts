import { compileCel, isCelProblem } from '../../cel.ts';
import type { JsonSchema } from '../domain.ts';
import type { PyExpr } from '../python/expression.ts';
import { parsePyExpr, PyExprError } from '../python/expression.ts';
import type { PyFunction } from '../python/module.ts';
import { readPythonModule } from '../python/module.ts';
import type { PyStatement } from '../python/statements.ts';
import { indexOfTopLevel } from '../python/statements.ts';
import type { TablePlan } from './database.ts';
import { ChangeReader } from './pyTool/changes.ts';
import {
  type CelValue,
  type Frame,
  IDENT,
  type Loop,
  type Place,
  type ToolProgram,
  Unreadable,
  type Value,
  celName,
  celOfEffect,
  conflicts,
  containsReturn,
  isStructured,
  itemSchema,
  numericOf,
  oneLine,
  onlyAnswers,
} from './pyTool/values.ts';

// A write tool's Python body read as what it does: the failures it raises (preconditions) and
// the changes it makes (effects), by following the body symbolically, never running it. Rows the
// body looks up (`self.db.orders[order_id]`, or through a helper such as `self._get_order`) are
// live places; a field set on one, deep inside a list or map column, becomes an `update` of that
// row built with `put`/`setAt`/`merge`. Loops over a list become `for_each` (or `.all(…)` for
// failures), `if` around a change becomes `when`, a sum kept in a loop becomes `sum(….map(…))`.
// Anything outside that subset, or any order of reads and writes the format's effects would not
// reproduce, makes the whole tool not carried, with the reason.
//
// The reader is built in layers, one file each under `pyTool/`: what it knows and gathers, with
// the small steps all layers take (`base.ts`); expressions as CEL values and live places
// (`expressions.ts`); changes gathered into effects (`changes.ts`); and the statements that drive
// them (here). The shapes they share and small pure pieces are in `values.ts`.

export type { ToolProgram } from './pyTool/values.ts';

/**
 * Reads a write tool's body (and the helpers it calls) as preconditions and effects over the
 * project's tables. `parameters` are the tool's arguments; `tables` the planned tables, by their
 * source name for `self.db.<name>`.
 */
export function programOf(
  body: string,
  helpers: Readonly<Record<string, string>>,
  parameters: { properties: Record<string, JsonSchema> },
  tables: readonly TablePlan[],
  firstLine = 1,
  options: { readonly returns?: boolean } = {},
): ToolProgram {
  const fn = readPythonModule(body).functions[0];
  if (fn === undefined) return { reason: 'its body could not be read' };
  try {
    const reader = new Reader(helpers, parameters, tables, firstLine);
    reader.wantsReturn = options.returns === true;
    return reader.run(fn);
  } catch (error) {
    if (error instanceof Unreadable || error instanceof PyExprError)
      return { reason: error.message };
    throw error;
  }
}

class Reader extends ChangeReader {
  /** Whether to read what the body returns (a read tool's answer) into `returned`. */
  wantsReturn = false;
  private returned: string | undefined;

  run(fn: PyFunction): ToolProgram {
    const locals = new Map<string, Value>([['self', { k: 'self' }]]);
    for (const name of Object.keys(this.parameters.properties)) {
      const schema = this.parameters.properties[name];
      // An argument whose default is None (`default: null`) may be left out: it reads as null.
      locals.set(name, {
        k: 'cel',
        cel:
          schema?.default === null ? `(has(args.${name}) ? args.${name} : null)` : `args.${name}`,
        reads: new Map(),
        at: 0,
        born: 0,
        deps: [],
        ...(schema && { schema }),
        ...numericOf(schema),
      });
    }
    if (fn.body.some((s) => s.body.some(containsReturn)))
      throw new Unreadable('it returns early from inside a block');
    this.block(fn.body, { locals, when: [], dry: false });
    this.flush();
    const effects = this.effects.map(({ writes: _w, epoch: _e, ...effect }) => effect);
    for (const effect of effects)
      for (const cel of celOfEffect(effect))
        if (isCelProblem(compileCel(cel)))
          throw new Unreadable(`a change it makes does not compile as CEL (${cel.slice(0, 80)}…)`);
    for (const r of this.requires)
      if (isCelProblem(compileCel(r.condition)))
        throw new Unreadable(`a failure's condition does not compile as CEL`);
    if (this.wantsReturn && this.returned === undefined)
      throw new Unreadable('it does not end by returning a value');
    if (this.returned !== undefined && isCelProblem(compileCel(this.returned)))
      throw new Unreadable('what it returns does not compile as CEL');
    return {
      requires: this.requires,
      effects,
      notes: this.notes,
      inert: onlyAnswers(fn.body),
      ...(this.returned !== undefined && { returns: this.returned }),
    };
  }

  // ---- statements ----

  protected block(statements: readonly PyStatement[], frame: Frame): void {
    let chain: CelValue[] = [];
    for (const statement of statements.map(oneLine)) {
      if (this.depth === 0) this.line = statement.line + this.firstLine - 1;
      const head = statement.tokens[0]?.value;
      if (head === 'elif' || head === 'else') {
        if (chain.length === 0) throw new Unreadable(`an "${head}" without its "if"`);
        const before = chain.map((c) => this.not(c));
        if (head === 'else') {
          this.branch(statement, [...frame.when, ...before], frame);
          chain = [];
        } else {
          const cond = this.condition(statement, frame);
          this.branch(statement, [...frame.when, ...before, cond], frame);
          chain = [...chain, cond];
        }
        continue;
      }
      chain = [];
      if (head === 'if') {
        const cond = this.condition(statement, frame);
        this.branch(statement, [...frame.when, cond], frame);
        chain = [cond];
      } else if (head === 'for') this.loop(statement, frame);
      else this.simple(statement, frame);
    }
  }

  protected condition(statement: PyStatement, frame: Frame): CelValue {
    const tokens = statement.tokens.slice(1, -1);
    return this.bool(this.expr(parsePyExpr(tokens), frame));
  }

  /** The body of an `if`/`elif`/`else`, run under its conditions. */
  protected branch(statement: PyStatement, when: CelValue[], frame: Frame): void {
    const before = new Map(frame.locals);
    this.block(statement.body, { ...frame, when });
    // A local set only in a branch keeps its value when the branch ran, else the one before.
    for (const [name, value] of frame.locals) {
      const old = before.get(name);
      if (old === value) continue;
      if (old === undefined || old.k !== 'cel' || value.k !== 'cel') {
        frame.locals.set(name, { k: 'unset', why: `"${name}" is set only in a branch` });
        continue;
      }
      const cond = this.all(when.slice(frame.when.length));
      frame.locals.set(
        name,
        this.cel(`(${cond.cel} ? ${value.cel} : ${old.cel})`, [cond, value, old]),
      );
    }
  }

  protected simple(statement: PyStatement, frame: Frame): void {
    const tokens = statement.tokens;
    const head = tokens[0];
    if (head === undefined || head.value === 'pass') return;
    if (head.type === 'string' && tokens.length === 1) return; // a docstring
    if (head.value === 'return') {
      // A read tool's answer is what its body returns at its end (an early return inside a
      // block was refused in `run`). What a write tool returns is not carried; a helper's
      // return is read by `call`.
      if (this.wantsReturn && this.depth === 0)
        this.returned =
          tokens.length === 1
            ? 'null'
            : this.celOf(this.expr(parsePyExpr(tokens.slice(1)), frame)).cel;
      return;
    }
    if (head.value === 'raise') {
      this.raise(statement, frame);
      return;
    }
    if (
      ['del', 'global', 'nonlocal', 'with', 'while', 'try', 'assert', 'import'].includes(head.value)
    )
      throw new Unreadable(`it uses "${head.value}" (line ${this.line})`);
    const assign = indexOfTopLevel(tokens, '=');
    const augment = tokens.findIndex((t) => t.type === 'op' && ['+=', '-='].includes(t.value));
    if (assign > 0) {
      const target = parsePyExpr(tokens.slice(0, assign));
      const value = this.expr(parsePyExpr(tokens.slice(assign + 1)), frame);
      this.assign(target, value, frame);
      return;
    }
    if (augment > 0) {
      const target = parsePyExpr(tokens.slice(0, augment));
      const op = tokens[augment]?.value === '+=' ? '+' : '-';
      const right = parsePyExpr(tokens.slice(augment + 1));
      this.augment(target, op, right, frame);
      return;
    }
    const expr = parsePyExpr(tokens);
    if (expr.t === 'call' && expr.fn.t === 'attr' && ['append', 'extend'].includes(expr.fn.name)) {
      this.extend(expr.fn.obj, expr.fn.name, expr.args, frame);
      return;
    }
    // A call for its own sake: a helper's failures count; anything else changes nothing we see.
    this.expr(expr, frame);
  }

  protected raise(statement: PyStatement, frame: Frame): void {
    if (frame.dry) return;
    if (frame.when.length === 0)
      throw new Unreadable(`it fails whatever the arguments (line ${this.line})`);
    const call = parsePyExpr(statement.tokens.slice(1));
    const message = call.t === 'call' ? call.args[0] : undefined;
    let error =
      message?.t === 'str' ? message.value.replace(/^error:\s*/i, '').trim() : 'The call failed.';
    if (message?.t === 'str' && message.fstring)
      this.notes.push(
        `"${error}" names values of the call; the message keeps their names in braces.`,
      );
    error ||= 'The call failed.';
    const cond = this.all(frame.when);
    // A failure after a change would read the changed data; the format checks failures first.
    const written = new Set([
      ...this.effects.flatMap((e) => [...e.writes]),
      ...this.pendingWrites(),
    ]);
    if (conflicts(cond.reads.keys(), written)) {
      this.notes.push(
        `"${error}" (line ${this.line}) is checked after a change; it is not carried.`,
      );
      return;
    }
    const loop = frame.loop;
    const holds = this.not(cond).cel;
    const condition = loop ? `${loop.list}.all(${loop.as}, ${holds})` : holds;
    if (this.requires.some((r) => r.condition === condition)) return;
    const requirement = { condition, error };
    this.requires.push(requirement);
    loop?.requires.push({ requirement, reads: new Set(cond.reads.keys()) });
  }

  protected loop(statement: PyStatement, frame: Frame): void {
    if (frame.loop) throw new Unreadable(`a loop inside a loop (line ${this.line})`);
    const tokens = statement.tokens.slice(1, -1);
    const inAt = tokens.findIndex((t) => t.type === 'name' && t.value === 'in');
    const targets = tokens
      .slice(0, inAt)
      .filter((t) => !(t.type === 'op' && t.value === ','))
      .map((t) => t.value);
    if (inAt < 1 || !targets.every((t) => IDENT.test(t)))
      throw new Unreadable(`a loop over a pattern (line ${this.line})`);
    const iter = parsePyExpr(tokens.slice(inAt + 1));
    this.flush();
    this.epoch++;
    const bind = (locals: Map<string, Value>, at: (list: CelValue) => string, name: string) => {
      if (iter.t === 'call' && iter.fn.t === 'name' && iter.fn.name === 'zip') {
        const lists = iter.args.map((a) => this.list(this.expr(a, frame)));
        if (lists.length !== targets.length) throw new Unreadable(`a zip unpacked unevenly`);
        lists.forEach((list, j) =>
          locals.set(
            targets[j] ?? '',
            this.cel(`${list.cel}[${name}]`, [list], itemSchema(list.schema)),
          ),
        );
        return this.cel(`range(min([${lists.map((l) => `size(${l.cel})`).join(', ')}]))`, lists);
      }
      if (targets.length !== 1) throw new Unreadable(`a loop that unpacks (line ${this.line})`);
      const list = this.list(this.expr(iter, frame));
      locals.set(targets[0] ?? '', this.cel(at(list), [list], itemSchema(list.schema)));
      return list;
    };
    const zip = iter.t === 'call' && iter.fn.t === 'name' && iter.fn.name === 'zip';
    const name = zip ? this.fresh('i') : celName(targets[0] ?? 'x');
    const locals = frame.locals;
    const list = bind(locals, () => name, name);
    const loop: Loop = { list: list.cel, as: name, epoch: this.epoch, effects: 0, requires: [] };
    const before = new Map(locals);
    this.block(statement.body, { locals, when: frame.when, loop, dry: frame.dry });
    const writes = this.flush();
    // A failure the loop checks after changing what it reads would see the change in Python.
    for (const { requirement, reads } of loop.requires)
      if (conflicts(reads, writes)) {
        this.requires.splice(this.requires.indexOf(requirement), 1);
        this.notes.push(
          `"${requirement.error}" is checked in a loop that changes what it reads; it is not carried.`,
        );
      }
    // Python's loop variables keep their last item after the loop: read the body once more, dry,
    // with the last item bound, for the locals it sets.
    const after = new Map(before);
    const last = `(size(${list.cel}) - 1)`;
    bind(after, (l) => `${l.cel}[${last}]`, last);
    this.block(statement.body, { locals: after, when: frame.when, dry: true });
    for (const [local, value] of after)
      if (!locals.has(local) || before.get(local) === locals.get(local)) locals.set(local, value);
      else if (!this.accumulated.has(locals.get(local) as CelValue)) locals.set(local, value);
  }

  protected readonly accumulated = new WeakSet<CelValue>();

  protected assign(target: PyExpr, value: Value, frame: Frame): void {
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
      const owner = this.placeOf(target.obj, frame, 'sets a field of');
      this.write(owner, target.name, () => this.celOf(value), frame);
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

  /** What `expr` names, which must be in the database: a row or something inside one. */
  protected placeOf(expr: PyExpr, frame: Frame, doing: string): Place {
    const owner = this.expr(expr, frame);
    if (owner.k !== 'place')
      throw new Unreadable(`it ${doing} something not in the database (line ${this.line})`);
    return owner;
  }

  protected augment(target: PyExpr, op: '+' | '-', right: PyExpr, frame: Frame): void {
    if (target.t === 'name') {
      const old = frame.locals.get(target.name);
      if (old === undefined || old.k !== 'cel')
        throw new Unreadable(`"${target.name}" is changed before it is set`);
      const value = this.celOf(this.expr(right, frame));
      if (frame.loop && !frame.dry) {
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
      if (frame.when.length > 0) throw new Unreadable(`"${target.name}" changes under an "if"`);
      frame.locals.set(target.name, this.arith(old, op, value));
      return;
    }
    if (target.t === 'attr') {
      const owner = this.placeOf(target.obj, frame, 'changes a field of');
      const amount = this.expr(right, frame);
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
      if (frame.when.length > 0) throw new Unreadable(`"${objExpr.name}" grows under an "if"`);
      frame.locals.set(objExpr.name, this.cel(`${old.cel} + ${added.cel}`, [old, added]));
      return;
    }
    if (objExpr.t !== 'attr') throw new Unreadable(`it adds to something not in the database`);
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
