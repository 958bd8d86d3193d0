import { compileCel, isCelProblem } from '../../cel.ts';
import type { JsonSchema } from '../domain.ts';
import type { PyExpr } from '../python/expression.ts';
import { parsePyExpr, PyExprError } from '../python/expression.ts';
import type { PyFunction } from '../python/module.ts';
import { readPythonModule } from '../python/module.ts';
import type { PyStatement } from '../python/statements.ts';
import { indexOfTopLevel } from '../python/statements.ts';
import type { TablePlan } from './database.ts';
import type { Effect } from './effects.ts';
import type { Requirement } from './requires.ts';
import { balanced, negate } from './requires.ts';

// A write tool's Python body read as what it does: the failures it raises (preconditions) and
// the changes it makes (effects), by following the body symbolically, never running it. Rows the
// body looks up (`self.db.orders[order_id]`, or through a helper such as `self._get_order`) are
// live places; a field set on one, deep inside a list or map column, becomes an `update` of that
// row built with `put`/`setAt`/`merge`. Loops over a list become `for_each` (or `.all(…)` for
// failures), `if` around a change becomes `when`, a sum kept in a loop becomes `sum(….map(…))`.
// Anything outside that subset, or any order of reads and writes the format's effects would not
// reproduce, makes the whole tool not carried, with the reason.

/** Why a body is outside what this reader carries. */
class Unreadable extends Error {}

type Numeric = 'int' | 'double';

/** A value as CEL: what it reads (table.column) and when each was read (its epoch). */
interface CelValue {
  readonly k: 'cel';
  readonly cel: string;
  readonly reads: ReadonlyMap<string, number>;
  readonly at: number;
  /** The epoch it was built in, and what it was built from. */
  readonly born: number;
  readonly deps: readonly CelValue[];
  readonly schema?: JsonSchema;
  readonly numeric?: Numeric;
  /** For a comparison, the opposite comparison (`a == b` for `a != b`), for `not`. */
  readonly opposite?: string;
  /** Set when the CEL reads `row` of a pending change: usable only inside that change. */
  readonly group?: number;
}

type Step =
  | { readonly field: string }
  | { readonly key: CelValue }
  | { readonly match: { readonly name: string; readonly cond: CelValue } };

/** A live view of a row or something inside it (Python's reference to a model object). */
interface Place {
  readonly k: 'place';
  readonly table: TablePlan;
  readonly key: CelValue;
  readonly steps: readonly Step[];
  readonly schema?: JsonSchema;
  /** For `next((x for x in list if …), None)`: CEL that holds when there is such an item. */
  readonly exists?: string;
}

type Value =
  | CelValue
  | Place
  | { readonly k: 'table'; readonly table: TablePlan }
  | { readonly k: 'self' }
  | { readonly k: 'db' }
  | { readonly k: 'class'; readonly name: string }
  | { readonly k: 'unset'; readonly why: string };

/** A change being gathered: consecutive writes to one row become one `update`. */
interface Group {
  readonly id: number;
  readonly table: TablePlan;
  readonly key: CelValue;
  /** New column values, as CEL over `row`. */
  readonly sets: Map<string, string>;
  /** Fields set on places inside a column, by the place's path, in order. */
  readonly nested: Map<string, { place: Place; fields: Map<string, string> }>;
  readonly used: CelValue[];
  /** Columns only appended to (`x.append`, `x.extend`): reads of a fixed item stay true. */
  readonly appends: Set<string>;
  /** The epoch it began in: in the body's order, its writes come before what is read after. */
  readonly epoch: number;
}

interface Loop {
  /** `for_each` list and `as` name. */
  readonly list: string;
  readonly as: string;
  readonly epoch: number;
  effects: number;
  /** Failures checked in the loop, with what they read: dropped if the loop changes that. */
  readonly requires: { requirement: Requirement; reads: ReadonlySet<string> }[];
}

interface Frame {
  readonly locals: Map<string, Value>;
  /** Conditions of the `if`s around the statement, as CEL. */
  readonly when: readonly CelValue[];
  readonly loop?: Loop;
  readonly dry: boolean;
}

/** What a write tool's body becomes, or why it does not. */
export type ToolProgram =
  | { readonly requires: Requirement[]; readonly effects: Effect[]; readonly notes: string[] }
  | { readonly reason: string };

const RESERVED = new Set([
  'args',
  'db',
  'row',
  'now',
  'inserted',
  'in',
  'as',
  'null',
  'true',
  'false',
]);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OPPOSITE: Readonly<Record<string, string>> = {
  '==': '!=',
  '!=': '==',
  '<': '>=',
  '>=': '<',
  '>': '<=',
  '<=': '>',
};

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
): ToolProgram {
  const fn = readPythonModule(body).functions[0];
  if (fn === undefined) return { reason: 'its body could not be read' };
  try {
    return new Reader(helpers, parameters, tables, firstLine).run(fn);
  } catch (error) {
    if (error instanceof Unreadable || error instanceof PyExprError)
      return { reason: error.message };
    throw error;
  }
}

class Reader {
  private readonly helpers = new Map<string, PyFunction | undefined>();
  private readonly helperSources: Readonly<Record<string, string>>;
  private readonly parameters: { properties: Record<string, JsonSchema> };
  private readonly tables: readonly TablePlan[];
  private readonly classes: Map<string, { field: string; value: string }>;
  private readonly requires: Requirement[] = [];
  private readonly effects: (Effect & { writes: Set<string>; epoch: number })[] = [];
  private readonly notes: string[] = [];
  private readonly names = new Set<string>();
  private group: (Group & { frame: Frame }) | undefined;
  private epoch = 0;
  private groups = 0;
  private line = 0;
  /** The tool's first line in its file; lines inside a helper are reported at its call. */
  private readonly firstLine: number;
  private depth = 0;

  constructor(
    helpers: Readonly<Record<string, string>>,
    parameters: { properties: Record<string, JsonSchema> },
    tables: readonly TablePlan[],
    firstLine: number,
  ) {
    this.firstLine = firstLine;
    this.helperSources = helpers;
    this.parameters = parameters;
    this.tables = tables;
    this.classes = discriminators(tables);
  }

  run(fn: PyFunction): ToolProgram {
    const locals = new Map<string, Value>([['self', { k: 'self' }]]);
    for (const name of Object.keys(this.parameters.properties)) {
      const schema = this.parameters.properties[name];
      locals.set(name, {
        k: 'cel',
        cel: `args.${name}`,
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
    return { requires: this.requires, effects, notes: this.notes };
  }

  // ---- statements ----

  private block(statements: readonly PyStatement[], frame: Frame): void {
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

  private condition(statement: PyStatement, frame: Frame): CelValue {
    const tokens = statement.tokens.slice(1, -1);
    return this.bool(this.expr(parsePyExpr(tokens), frame));
  }

  /** The body of an `if`/`elif`/`else`, run under its conditions. */
  private branch(statement: PyStatement, when: CelValue[], frame: Frame): void {
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

  private simple(statement: PyStatement, frame: Frame): void {
    const tokens = statement.tokens;
    const head = tokens[0];
    if (head === undefined || head.value === 'pass') return;
    if (head.type === 'string' && tokens.length === 1) return; // a docstring
    if (head.value === 'return') {
      // What a write tool returns is not carried; a helper's return is read by `call`.
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

  private raise(statement: PyStatement, frame: Frame): void {
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

  private loop(statement: PyStatement, frame: Frame): void {
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

  private readonly accumulated = new WeakSet<CelValue>();

  private assign(target: PyExpr, value: Value, frame: Frame): void {
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
    throw new Unreadable(`it assigns to "${target.t}" (line ${this.line})`);
  }

  /** What `expr` names, which must be in the database: a row or something inside one. */
  private placeOf(expr: PyExpr, frame: Frame, doing: string): Place {
    const owner = this.expr(expr, frame);
    if (owner.k !== 'place')
      throw new Unreadable(`it ${doing} something not in the database (line ${this.line})`);
    return owner;
  }

  private augment(target: PyExpr, op: '+' | '-', right: PyExpr, frame: Frame): void {
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
  private extend(objExpr: PyExpr, method: string, args: readonly PyExpr[], frame: Frame): void {
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

  // ---- changes ----

  /**
   * Sets `field` of a place to `next(current)`. The change joins the pending one when it is to
   * the same row under the same conditions; otherwise the pending one is written first.
   */
  private write(
    place: Place,
    field: string,
    next: (current: CelValue) => CelValue,
    frame: Frame,
    append = false,
  ): void {
    if (frame.dry) return;
    if (place.exists !== undefined && place.steps.length === 0)
      throw new Unreadable('it changes a row it may not have found');
    const key = place.key.cel;
    if (
      this.group &&
      (this.group.table !== place.table ||
        this.group.key.cel !== key ||
        this.group.frame.when !== frame.when ||
        this.group.frame.loop !== frame.loop)
    )
      this.flush();
    const group: Group & { frame: Frame } = (this.group ??= {
      id: ++this.groups,
      table: place.table,
      key: place.key,
      sets: new Map(),
      nested: new Map(),
      used: [place.key],
      appends: new Set(),
      epoch: this.epoch++,
      frame,
    });
    const [first, ...rest] = place.steps;
    if (first === undefined) {
      if (!place.table.columns.some((c) => c.name === field))
        throw new Unreadable(`it sets "${field}", which is not a column of ${place.table.name}`);
      const schema = columnSchema(place.table, field);
      const current = this.cel(
        group.sets.get(field) ?? `row.${fieldCel(field)}`,
        [],
        schema,
        stored(schema),
      );
      const value = next({ ...current, group: group.id });
      group.used.push(value);
      if (append && (!group.sets.has(field) || group.appends.has(field))) group.appends.add(field);
      else group.appends.delete(field);
      group.sets.set(field, value.cel);
      return;
    }
    if (!('field' in first)) throw new Unreadable('it changes a row through an index');
    const path = pathKey(place.steps);
    const entry: { place: Place; fields: Map<string, string> } = group.nested.get(path) ?? {
      place,
      fields: new Map<string, string>(),
    };
    group.nested.set(path, entry);
    for (const step of rest) {
      if ('key' in step) group.used.push(step.key);
      if ('match' in step) group.used.push(step.match.cond);
    }
    const inside = this.renderRow(place, 'row');
    const schema = fieldSchema(place.schema, field);
    const current = this.cel(
      entry.fields.get(field) ?? `${inside}.${fieldCel(field)}`,
      [],
      schema,
      stored(schema),
    );
    const value = next({ ...current, group: group.id });
    group.used.push(value);
    entry.fields.set(field, value.cel);
  }

  private pendingWrites(): string[] {
    if (!this.group) return [];
    const g = this.group;
    return [
      ...[...g.sets.keys()].map((c) => `${g.table.name}.${c}${g.appends.has(c) ? '+' : ''}`),
      ...[...g.nested.values()].map((n) => `${g.table.name}.${firstField(n.place)}`),
    ];
  }

  /**
   * Writes the pending change as one `update` effect, and returns the columns it writes. In a
   * loop, a value read before the loop from a column the loop changes is read once, before the
   * first item, into the `for_each` list: each item is then `{<name>: item, h1: …}`.
   */
  private flush(): Set<string> {
    const group = this.group;
    this.group = undefined;
    if (group === undefined) return new Set();
    const { frame } = group;
    const sets = new Map(group.sets);
    // Changes inside a column, applied to the column in order, each at its place.
    for (const { place, fields } of group.nested.values()) {
      const column = firstField(place);
      const base = sets.get(column) ?? `row.${fieldCel(column)}`;
      const patch = mapLiteral([...fields].map(([f, v]) => [f, bare(v)]));
      sets.set(
        column,
        rebuild(base, place.steps.slice(1), (at) => `merge(${at}, ${patch})`),
      );
    }
    const writes = new Set(
      [...sets.keys()].map(
        (c) => `${group.table.name}.${c}${group.appends.has(c) && !group.nested.size ? '+' : ''}`,
      ),
    );
    const used = [...group.used, ...frame.when];
    // What the change reads must not have changed since it was read.
    for (const value of used) {
      if (value.group !== undefined && value.group !== group.id)
        throw new Unreadable(
          `a value read inside one change is used in another (line ${this.line})`,
        );
      for (const effect of this.effects)
        for (const [read, time] of value.reads)
          if (effect.epoch >= time && conflicts([read], effect.writes))
            throw new Unreadable(
              `it reads ${read.replace('[]', '')} before a change to it and uses it after (line ${this.line})`,
            );
    }
    let where = `row.${fieldCel(group.table.key)} == ${group.key.cel}`;
    let when = frame.when.length > 0 ? this.all(frame.when).cel : undefined;
    let each: { for_each: string; as: string } | undefined;
    const loop = frame.loop;
    if (loop) {
      loop.effects++;
      if (loop.effects > 1)
        throw new Unreadable(`a loop that makes two changes (line ${this.line})`);
      const hoisted = new Map<string, string>();
      const visit = (value: CelValue): void => {
        if (value.born < loop.epoch) {
          if (conflicts(value.reads.keys(), writes) && !hoisted.has(value.cel))
            hoisted.set(value.cel, `h${hoisted.size + 1}`);
          return;
        }
        value.deps.forEach(visit);
      };
      used.forEach(visit);
      each = { for_each: loop.list, as: loop.as };
      if (hoisted.size > 0) {
        const record = this.fresh('it');
        const swap = (cel: string) => {
          let out = cel;
          for (const [text, name] of hoisted) out = out.split(text).join(`${record}.${name}`);
          return `[${record}.${loop.as}].map(${loop.as}, ${out})[0]`;
        };
        each = {
          for_each: `${loop.list}.map(${loop.as}, ${mapLiteral([[loop.as, loop.as], ...[...hoisted].map(([text, name]) => [name, text] as [string, string])])})`,
          as: record,
        };
        where = swap(where);
        if (when !== undefined) when = swap(when);
        for (const [column, cel] of sets) sets.set(column, swap(cel));
      }
    }
    for (const [column, cel] of sets) sets.set(column, bare(cel));
    const effect: Effect = {
      update: group.table.name,
      ...each,
      ...(when !== undefined && { when }),
      where,
      set: Object.fromEntries(sets),
    };
    this.effects.push({ ...effect, writes, epoch: group.epoch });
    return writes;
  }

  // ---- expressions ----

  private expr(e: PyExpr, frame: Frame): Value {
    switch (e.t) {
      case 'name': {
        const value = frame.locals.get(e.name);
        if (value === undefined) {
          if (/^[A-Z]/.test(e.name)) return { k: 'class', name: e.name };
          throw new Unreadable(`it reads "${e.name}", which it never sets (line ${this.line})`);
        }
        if (value.k === 'unset') throw new Unreadable(`${value.why} (line ${this.line})`);
        return value;
      }
      case 'num': {
        if (!/^\d+(\.\d+)?$/.test(e.text)) throw new Unreadable(`the number ${e.text}`);
        return this.cel(e.text, [], undefined, e.text.includes('.') ? 'double' : 'int');
      }
      case 'str':
        if (e.fstring) throw new Unreadable(`an f-string value (line ${this.line})`);
        return this.cel(JSON.stringify(e.value), [], { type: 'string' });
      case 'const':
        return this.cel(e.value === 'None' ? 'null' : e.value === 'True' ? 'true' : 'false', []);
      case 'attr':
        return this.attr(this.expr(e.obj, frame), e.name);
      case 'index':
        return this.index(this.expr(e.obj, frame), e.index, frame);
      case 'call':
        return this.call(e, frame);
      case 'bin': {
        const left = this.celOf(this.expr(e.left, frame));
        const right = this.celOf(this.expr(e.right, frame));
        if (e.op === '+' || e.op === '-' || e.op === '*' || e.op === '/')
          return this.arith(left, e.op, right);
        throw new Unreadable(`the operator ${e.op}`);
      }
      case 'neg': {
        const x = this.celOf(this.expr(e.x, frame));
        return this.cel(`-(${x.cel})`, [x], x.schema, x.numeric);
      }
      case 'not':
        return this.not(this.bool(this.expr(e.x, frame)));
      case 'bool': {
        const left = this.bool(this.expr(e.left, frame));
        const right = this.bool(this.expr(e.right, frame));
        return this.cel(`(${left.cel} ${e.op === 'and' ? '&&' : '||'} ${right.cel})`, [
          left,
          right,
        ]);
      }
      case 'cmp':
        return this.compare(e, frame);
      case 'if': {
        const cond = this.bool(this.expr(e.cond, frame));
        const a = this.celOf(this.expr(e.then, frame));
        const b = this.celOf(this.expr(e.else, frame));
        return this.cel(`(${cond.cel} ? ${a.cel} : ${b.cel})`, [cond, a, b], a.schema);
      }
      case 'list':
      case 'tuple':
      case 'set': {
        const items = e.items.map((i) => this.celOf(this.expr(i, frame)));
        return this.cel(`[${items.map((i) => i.cel).join(', ')}]`, items, { type: 'array' });
      }
      case 'dict':
        throw new Unreadable(`a dict literal (line ${this.line})`);
      case 'comp':
        return this.comprehension(e, frame);
    }
  }

  private attr(obj: Value, name: string): Value {
    if (obj.k === 'self') {
      if (name === 'db') return { k: 'db' };
      throw new Unreadable(`it reads self.${name}`);
    }
    if (obj.k === 'db') {
      const table = this.tables.find((t) => t.source === name);
      if (!table) throw new Unreadable(`self.db.${name} is not a table of the project`);
      return { k: 'table', table };
    }
    if (obj.k === 'place') {
      // A row's key is the key it was looked up by.
      if (obj.steps.length === 0 && name === obj.table.key) return obj.key;
      if (obj.steps.length === 0 && !obj.table.columns.some((c) => c.name === name))
        throw new Unreadable(`${obj.table.name} has no column "${name}"`);
      const schema =
        obj.steps.length === 0 ? columnSchema(obj.table, name) : fieldSchema(obj.schema, name);
      const steps = [...obj.steps, { field: name }];
      // A field read while a change to it is pending reads the pending value.
      const pending = this.pending(obj, name);
      if (pending !== undefined) return pending;
      return { k: 'place', table: obj.table, key: obj.key, steps, ...(schema && { schema }) };
    }
    if (obj.k === 'cel') {
      const schema = fieldSchema(obj.schema, name);
      // A field of a value read from the database is stored JSON: a number is a double.
      return this.cel(`${obj.cel}.${fieldCel(name)}`, [obj], schema, stored(schema));
    }
    throw new Unreadable(`it reads ".${name}" of a ${obj.k}`);
  }

  private pending(place: Place, field: string): CelValue | undefined {
    const g = this.group;
    if (!g || g.table !== place.table || g.key.cel !== place.key.cel) return undefined;
    if (place.steps.length === 0) {
      const set = g.sets.get(field);
      return set === undefined ? undefined : this.cel(set, [], undefined, undefined, g.id);
    }
    const entry = g.nested.get(pathKey(place.steps));
    const set = entry?.fields.get(field);
    if (set !== undefined) return this.cel(set, [], undefined, undefined, g.id);
    if (g.sets.has(firstField(place)) || g.nested.size > 0)
      for (const other of g.nested.values())
        if (firstField(other.place) === firstField(place))
          throw new Unreadable(`it reads inside a column it is changing (line ${this.line})`);
    return undefined;
  }

  private index(obj: Value, indexExpr: PyExpr, frame: Frame): Value {
    const index = this.celOf(this.expr(indexExpr, frame));
    if (obj.k === 'table') {
      const key = index;
      return { k: 'place', table: obj.table, key, steps: [] };
    }
    if (obj.k === 'place') {
      if (obj.steps.length === 0) throw new Unreadable('it indexes a row');
      if (index.cel.startsWith('-')) throw new Unreadable(`a negative index (line ${this.line})`);
      const schema =
        obj.schema?.type === 'array' ? itemSchema(obj.schema) : entrySchema(obj.schema);
      return {
        k: 'place',
        table: obj.table,
        key: obj.key,
        steps: [...obj.steps, { key: index }],
        ...(schema && { schema }),
      };
    }
    if (obj.k === 'cel') {
      const schema =
        obj.schema?.type === 'array' ? itemSchema(obj.schema) : entrySchema(obj.schema);
      const at = /^-\d+$/.test(index.cel)
        ? `size(${obj.cel}) ${index.cel.replace('-', '- ')}`
        : index.cel;
      return this.cel(`${obj.cel}[${at}]`, [obj, index], schema, stored(schema));
    }
    throw new Unreadable(`it indexes a ${obj.k}`);
  }

  private call(e: Extract<PyExpr, { t: 'call' }>, frame: Frame): Value {
    const { fn, args, kwargs } = e;
    if (fn.t === 'attr' && fn.obj.t === 'name' && fn.obj.name === 'self')
      return this.helper(
        fn.name,
        args.map((a) => this.expr(a, frame)),
        frame,
      );
    if (fn.t === 'attr') {
      const obj = this.expr(fn.obj, frame);
      const target = this.celOf(obj);
      const [first] = args.map((a) => this.celOf(this.expr(a, frame)));
      if (fn.name === 'count' && first) {
        const v = this.fresh('e');
        return this.cel(
          `size(${target.cel}.filter(${v}, ${v} == ${first.cel}))`,
          [target, first],
          undefined,
          'int',
        );
      }
      if (fn.name === 'startswith' && first)
        return this.cel(`${target.cel}.startsWith(${first.cel})`, [target, first]);
      if (fn.name === 'endswith' && first)
        return this.cel(`${target.cel}.endsWith(${first.cel})`, [target, first]);
      throw new Unreadable(`it calls .${fn.name}() (line ${this.line})`);
    }
    if (fn.t !== 'name') throw new Unreadable(`a call it cannot follow (line ${this.line})`);
    if (/^[A-Z]/.test(fn.name) && args.length === 0) {
      // A model built from fields (`OrderPayment(amount=…)`): a map.
      const fields = kwargs.map(([k, v]) => [k, this.celOf(this.expr(v, frame))] as const);
      return this.cel(
        mapLiteral(fields.map(([k, v]) => [k, v.cel])),
        fields.map(([, v]) => v),
        { type: 'object', title: fn.name },
      );
    }
    if (kwargs.length > 0) throw new Unreadable(`${fn.name}() with keyword arguments`);
    const values = () => args.map((a) => this.celOf(this.expr(a, frame)));
    switch (fn.name) {
      case 'len': {
        const [x] = values();
        if (!x) break;
        return this.cel(`size(${x.cel})`, [x], undefined, 'int');
      }
      case 'round': {
        const [x, digits] = values();
        if (!x || !digits) break;
        return this.cel(`round(${x.cel}, ${digits.cel})`, [x, digits], undefined, 'double');
      }
      case 'abs': {
        const [x] = values();
        if (!x) break;
        return this.cel(`abs(${x.cel})`, [x], undefined, x.numeric);
      }
      case 'sorted': {
        const [x] = values();
        if (!x) break;
        return this.cel(`sorted(${x.cel})`, [x], x.schema);
      }
      case 'sum':
      case 'min':
      case 'max': {
        const [x] = values();
        if (!x || args.length !== 1) break;
        return this.cel(`${fn.name}(${x.cel})`, [x], undefined, 'double');
      }
      case 'list': {
        const [x] = values();
        if (!x) break;
        return x;
      }
      case 'isinstance': {
        const [subject, cls] = args;
        if (!subject || cls?.t !== 'name') break;
        const tag = this.classes.get(cls.name);
        if (!tag)
          throw new Unreadable(`isinstance of ${cls.name}, which no column's data tells apart`);
        const x = this.celOf(this.expr(subject, frame));
        return this.cel(`${x.cel}.${fieldCel(tag.field)} == ${JSON.stringify(tag.value)}`, [x]);
      }
      case 'any':
      case 'all': {
        const [gen] = args;
        if (gen?.t !== 'comp') break;
        const { list, name, cond, item } = this.over(gen, frame);
        const test = this.bool(item);
        const body = cond ? `(!(${cond.cel}) || ${test.cel})` : test.cel;
        const whole =
          fn.name === 'any'
            ? `${list.cel}.exists(${name}, ${cond ? `${cond.cel} && ${test.cel}` : test.cel})`
            : `${list.cel}.all(${name}, ${body})`;
        return this.cel(whole, [list, test, ...(cond ? [cond] : [])]);
      }
      case 'next': {
        const [gen, fallback] = args;
        if (
          gen?.t !== 'comp' ||
          (fallback && !(fallback.t === 'const' && fallback.value === 'None'))
        )
          break;
        return this.next(gen, frame);
      }
    }
    throw new Unreadable(`it calls ${fn.name}() (line ${this.line})`);
  }

  /** A comprehension's list, its variable's CEL name, its filter and its item, read once. */
  private over(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame) {
    if (gen.vars.length !== 1) throw new Unreadable('a comprehension that unpacks');
    const source = this.expr(gen.iter, frame);
    const list = this.list(source);
    const name = celName(gen.vars[0] ?? 'x');
    const locals = new Map(frame.locals);
    locals.set(gen.vars[0] ?? '', this.cel(name, [list], itemSchema(list.schema)));
    const inner: Frame = { ...frame, locals };
    const cond = gen.cond ? this.bool(this.expr(gen.cond, inner)) : undefined;
    const item = this.expr(gen.item, inner);
    return { source, list, name, cond, item };
  }

  private comprehension(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame): Value {
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
  private next(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame): Value {
    const { source, list, name, cond, item } = this.over(gen, frame);
    if (!cond || item.k !== 'cel' || item.cel !== name)
      throw new Unreadable('a next() that is not a search');
    const exists = `${list.cel}.exists(${name}, ${cond.cel})`;
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

  private compare(e: Extract<PyExpr, { t: 'cmp' }>, frame: Frame): CelValue {
    const leftValue = this.expr(e.left, frame);
    if (e.op === 'is' || e.op === 'is not') {
      const negated = e.op === 'is not';
      if (!(e.right.t === 'const' && e.right.value === 'None'))
        throw new Unreadable('"is" with something other than None');
      if (leftValue.k === 'place' && leftValue.exists !== undefined)
        return this.cel(negated ? leftValue.exists : `!(${leftValue.exists})`, [
          this.celOf(leftValue),
        ]);
      const left = this.celOf(leftValue);
      return {
        ...this.cel(`${left.cel} ${negated ? '!=' : '=='} null`, [left]),
        opposite: `${left.cel} ${negated ? '==' : '!='} null`,
      };
    }
    const rightValue = this.expr(e.right, frame);
    if (e.op === 'in' || e.op === 'not in') {
      const left = this.celOf(leftValue);
      let test: CelValue;
      if (rightValue.k === 'table') {
        const r = 'r';
        test = this.cel(
          `db.${rightValue.table.name}.exists(${r}, ${r}.${fieldCel(rightValue.table.key)} == ${left.cel})`,
          [left],
        );
        test = {
          ...test,
          reads: withReads(
            test.reads,
            [`${rightValue.table.name}.${rightValue.table.key}`],
            this.epoch,
          ),
        };
      } else {
        const right = this.celOf(rightValue);
        test =
          right.schema?.type === 'string'
            ? this.cel(`${right.cel}.contains(${left.cel})`, [left, right])
            : this.cel(`${left.cel} in ${right.cel}`, [left, right]);
      }
      return e.op === 'in' ? test : this.not(test);
    }
    const left = this.celOf(leftValue);
    const right = this.celOf(rightValue);
    return {
      ...this.cel(`${left.cel} ${e.op} ${right.cel}`, [left, right]),
      opposite: `${left.cel} ${OPPOSITE[e.op] ?? '!='} ${right.cel}`,
    };
  }

  /** Inlines `self._helper(…)`: its failures count here; its value is what it returns. */
  private helper(name: string, args: readonly Value[], frame: Frame): Value {
    if (!this.helpers.has(name)) {
      const source = this.helperSources[name];
      this.helpers.set(
        name,
        source === undefined ? undefined : readPythonModule(source).functions[0],
      );
    }
    const fn = this.helpers.get(name);
    if (fn === undefined)
      throw new Unreadable(`it calls self.${name}(), whose source is not beside it`);
    const params = fn.params.filter((p) => p.name !== 'self');
    if (params.length !== args.length || params.some((p) => p.kind !== 'plain'))
      throw new Unreadable(`self.${name}() is called with ${args.length} arguments`);
    const locals = new Map<string, Value>([['self', { k: 'self' }]]);
    params.forEach((p, i) =>
      locals.set(p.name, args[i] ?? { k: 'unset', why: 'a missing argument' }),
    );
    const body = fn.body;
    const last = body[body.length - 1];
    if (last?.tokens[0]?.value !== 'return')
      throw new Unreadable(`self.${name}() does not end by returning a value`);
    if (body.slice(0, -1).some((s) => containsReturn(s)))
      throw new Unreadable(`self.${name}() returns from more than one place`);
    this.depth++;
    try {
      this.block(body.slice(0, -1), { ...frame, locals });
      return this.expr(parsePyExpr(last.tokens.slice(1)), { ...frame, locals });
    } finally {
      this.depth--;
    }
  }

  // ---- helpers ----

  private celOf(value: Value): CelValue {
    if (value.k === 'cel') return value;
    if (value.k === 'place') return this.read(value);
    if (value.k === 'table') throw new Unreadable('it uses a whole table as a value');
    throw new Unreadable(`it uses ${value.k === 'class' ? value.name : value.k} as a value`);
  }

  private list(value: Value): CelValue {
    const list = this.celOf(value);
    if (list.schema?.type === 'object') {
      throw new Unreadable('it walks a map');
    }
    return list;
  }

  /** A place's value now, as CEL over `db`. */
  private read(place: Place): CelValue {
    // Each look-up's `r` is its own: CEL scopes a macro's variable to the macro.
    const r = 'r';
    const row = `db.${place.table.name}.filter(${r}, ${r}.${fieldCel(place.table.key)} == ${place.key.cel})[0]`;
    const parts: CelValue[] = [place.key];
    for (const step of place.steps) {
      if ('key' in step) parts.push(step.key);
      if ('match' in step) parts.push(step.match.cond);
    }
    // A fixed item of a list (`payment_history[0]`) stays what it was when the list only grows.
    const second = place.steps[1];
    const fixed = second !== undefined && 'key' in second && /^\d+$/.test(second.key.cel);
    const column = place.steps.length === 0 ? '*' : `${firstField(place)}${fixed ? '[]' : ''}`;
    const value = this.cel(this.renderRow(place, row), parts, place.schema, stored(place.schema));
    return {
      ...value,
      reads: withReads(
        value.reads,
        [`${place.table.name}.${column}`, `${place.table.name}.${place.table.key}`],
        this.epoch,
      ),
    };
  }

  private renderRow(place: Place, row: string): string {
    let out = row;
    for (const step of place.steps) {
      if ('field' in step) out += `.${fieldCel(step.field)}`;
      else if ('key' in step) out += `[${step.key.cel}]`;
      else out += `.filter(${step.match.name}, ${step.match.cond.cel})[0]`;
    }
    return out;
  }

  private bool(value: Value): CelValue {
    if (value.k === 'place' && value.exists !== undefined)
      return this.cel(value.exists, [this.read(value)]);
    return this.celOf(value);
  }

  private not(value: CelValue): CelValue {
    return this.cel(value.opposite ?? negate(value.cel), [value]);
  }

  private all(values: readonly CelValue[]): CelValue {
    if (values.length === 1 && values[0]) return values[0];
    return this.cel(values.map((v) => `(${v.cel})`).join(' && '), values);
  }

  private arith(left: CelValue, op: string, right: CelValue): CelValue {
    // CEL does not mix ints and doubles: a whole-number literal beside a double is written as one.
    const fix = (v: CelValue, other: CelValue) =>
      v.numeric === 'int' && other.numeric !== 'int' && /^\d+$/.test(v.cel) ? `${v.cel}.0` : v.cel;
    const numeric = left.numeric === 'int' && right.numeric === 'int' ? 'int' : 'double';
    const text = `(${fix(left, right)} ${op} ${fix(right, left)})`;
    return this.cel(
      text,
      [left, right],
      left.schema?.type === 'string' ? left.schema : undefined,
      left.schema?.type === 'string' ? undefined : numeric,
    );
  }

  private cel(
    cel: string,
    from: readonly CelValue[],
    schema?: JsonSchema,
    numeric?: Numeric,
    group?: number,
  ): CelValue {
    const reads = new Map<string, number>();
    for (const f of from)
      for (const [read, time] of f.reads) reads.set(read, Math.min(time, reads.get(read) ?? time));
    const at = from.length === 0 ? this.epoch : Math.min(...from.map((f) => f.at));
    const inGroup = group ?? from.find((f) => f.group !== undefined)?.group;
    return {
      k: 'cel',
      cel,
      reads,
      at,
      born: this.epoch,
      deps: from,
      ...(schema && { schema }),
      ...(numeric && { numeric }),
      ...(inGroup !== undefined && { group: inGroup }),
    };
  }

  /** A CEL variable name of the reader's own (an index, a record), unique within the tool. */
  private fresh(base: string): string {
    const clean = celName(base);
    let name = clean;
    for (let n = 2; this.names.has(name); n++) name = `${clean}${n}`;
    this.names.add(name);
    return name;
  }
}

// ---- schemas and small pieces ----

function numericOf(schema: JsonSchema | undefined): { numeric?: Numeric } {
  if (schema?.type === 'integer') return { numeric: 'int' };
  if (schema?.type === 'number') return { numeric: 'double' };
  return {};
}

/**
 * Whether reads (`table.column`, or `table.column[]` for a fixed item of a list column) meet
 * writes (`table.column`, or `table.column+` when the column was only appended to). A whole-row
 * read (`table.*`) meets every write to the table.
 */
function conflicts(reads: Iterable<string>, writes: ReadonlySet<string>): boolean {
  for (const read of reads) {
    const fixed = read.endsWith('[]');
    const column = fixed ? read.slice(0, -2) : read;
    if (writes.has(column) || (!fixed && writes.has(`${column}+`))) return true;
    if (column.endsWith('.*')) {
      const table = column.slice(0, -1);
      if ([...writes].some((w) => w.startsWith(table))) return true;
    }
  }
  return false;
}

/** Reads with more read at `time` (an earlier time for the same read stays). */
function withReads(
  reads: ReadonlyMap<string, number>,
  more: readonly string[],
  time: number,
): Map<string, number> {
  const out = new Map(reads);
  for (const read of more) out.set(read, Math.min(time, out.get(read) ?? time));
  return out;
}

/** Numbers in rows and lists are JSON numbers, which CEL reads as doubles, integers included. */
function stored(schema: JsonSchema | undefined): Numeric | undefined {
  return schema?.type === 'number' || schema?.type === 'integer' ? 'double' : undefined;
}

function isStructured(schema: JsonSchema | undefined): boolean {
  return (
    schema === undefined ||
    schema.type === 'object' ||
    schema.type === 'array' ||
    Array.isArray(schema.anyOf)
  );
}

function columnSchema(table: TablePlan, name: string): JsonSchema | undefined {
  const spec = table.columns.find((c) => c.name === name)?.spec;
  if (!spec) return undefined;
  return spec.schema ?? { type: spec.type };
}

function fieldSchema(schema: JsonSchema | undefined, field: string): JsonSchema | undefined {
  if (!schema) return undefined;
  const options = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  for (const option of options) {
    const properties = option.properties as Record<string, JsonSchema> | undefined;
    if (properties?.[field]) return properties[field];
  }
  return undefined;
}

function itemSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  const items = schema?.items;
  return items && typeof items === 'object' && !Array.isArray(items)
    ? (items as JsonSchema)
    : undefined;
}

function entrySchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  const entry = schema?.additionalProperties;
  return entry && typeof entry === 'object' ? (entry as JsonSchema) : undefined;
}

/**
 * Per model class (its schema's `title`), the field and value that tell it apart from the other
 * options of a union (`source: "gift_card"` for GiftCard), from every column's schema.
 */
function discriminators(
  tables: readonly TablePlan[],
): Map<string, { field: string; value: string }> {
  const found = new Map<string, { field: string; value: string }>();
  const visit = (schema: unknown): void => {
    if (schema === null || typeof schema !== 'object') return;
    if (Array.isArray(schema)) {
      schema.forEach(visit);
      return;
    }
    const s = schema as JsonSchema;
    if (Array.isArray(s.anyOf)) {
      const options = (s.anyOf as JsonSchema[]).filter((o) => typeof o.title === 'string');
      for (const option of options) {
        const properties = (option.properties ?? {}) as Record<string, JsonSchema>;
        for (const [field, fs] of Object.entries(properties)) {
          const values: unknown[] = Array.isArray(fs.enum) ? fs.enum : [];
          const only = values.length === 1 ? values[0] : fs.const;
          if (typeof only !== 'string') continue;
          const unique = options.every((other) => {
            if (other === option) return true;
            const o = ((other.properties ?? {}) as Record<string, JsonSchema>)[field];
            const values = Array.isArray(o?.enum)
              ? o.enum
              : o?.const !== undefined
                ? [o.const]
                : [];
            return values.length > 0 && !values.includes(only);
          });
          if (unique) {
            found.set(option.title as string, { field, value: only });
            break;
          }
        }
      }
    }
    for (const value of Object.values(s)) visit(value);
  };
  for (const table of tables) for (const column of table.columns) visit(column.spec.schema);
  return found;
}

/**
 * A CEL map literal. Values are wrapped in `dyn(…)` so that a literal beside values of another
 * type passes CEL's type check (`{"type": "refund", "amount": 12.5}`).
 */
function mapLiteral(entries: ReadonlyArray<readonly [string, string]>): string {
  const wrap = (v: string) => (entries.length > 1 ? `dyn(${v})` : v);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${wrap(v)}`).join(', ')}}`;
}

/**
 * A Python variable's name in CEL: the same name, since CEL scopes a macro's variable as Python
 * scopes a comprehension's; a name the format or CEL reserves gets a suffix.
 */
function celName(name: string): string {
  if (!IDENT.test(name)) return 'x';
  return RESERVED.has(name) ? `${name}_` : name;
}

function fieldCel(name: string): string {
  return IDENT.test(name) && !RESERVED.has(name) ? name : `["${name}"]`.replace(/^/, '');
}

function firstField(place: Place): string {
  const first = place.steps[0];
  if (first === undefined || !('field' in first))
    throw new Unreadable('a change outside any column');
  return first.field;
}

function pathKey(steps: readonly Step[]): string {
  return steps
    .map((s) =>
      'field' in s
        ? `.${s.field}`
        : 'key' in s
          ? `[${s.key.cel}]`
          : `{${s.match.name}:${s.match.cond.cel}}`,
    )
    .join('');
}

/** `base` with the value at `steps` (below the column) replaced by `change(current)`. */
function rebuild(base: string, steps: readonly Step[], change: (at: string) => string): string {
  const [step, ...rest] = steps;
  if (step === undefined) return change(base);
  if ('field' in step) {
    const at = `${base}.${fieldCel(step.field)}`;
    return `put(${base}, ${JSON.stringify(step.field)}, ${rebuild(at, rest, change)})`;
  }
  if ('key' in step) {
    const at = `${base}[${step.key.cel}]`;
    return `put(${base}, ${step.key.cel}, ${rebuild(at, rest, change)})`;
  }
  const { name, cond } = step.match;
  const j = `${name}_at`;
  const index = `range(size(${base})).filter(${j}, [${base}[${j}]].exists(${name}, ${cond.cel}))[0]`;
  return `setAt(${base}, ${index}, ${rebuild(`${base}[${index}]`, rest, change)})`;
}

/** `if x: raise …` written on one line, as the `if` with its body under it. */
function oneLine(statement: PyStatement): PyStatement {
  const head = statement.tokens[0]?.value ?? '';
  const last = statement.tokens[statement.tokens.length - 1];
  if (!['if', 'elif', 'else', 'for'].includes(head) || statement.body.length > 0) return statement;
  if (last?.type === 'op' && last.value === ':') return statement;
  const colon = indexOfTopLevel(statement.tokens, ':');
  if (colon < 0) return statement;
  return {
    tokens: statement.tokens.slice(0, colon + 1),
    line: statement.line,
    body: [{ tokens: statement.tokens.slice(colon + 1), line: statement.line, body: [] }],
  };
}

function containsReturn(statement: PyStatement): boolean {
  return statement.tokens[0]?.value === 'return' || statement.body.some(containsReturn);
}

/** An expression without the parentheses around the whole of it. */
function bare(cel: string): string {
  const inner = /^\((.*)\)$/s.exec(cel)?.[1];
  return inner !== undefined && balanced(inner) ? bare(inner) : cel;
}

function celOfEffect(effect: Effect): string[] {
  const out: string[] = [];
  for (const key of ['for_each', 'when', 'where'] as const) {
    const v = effect[key];
    if (typeof v === 'string') out.push(v);
  }
  const set = effect.set as Record<string, string> | undefined;
  if (set) out.push(...Object.values(set));
  return out;
}
