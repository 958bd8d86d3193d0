import { celSelect } from '../../../celVariables.ts';
import type { JsonSchema } from '../../domain.ts';
import type { PyExpr } from '../../python/expression.ts';
import { parsePyExpr } from '../../python/expression.ts';
import { readPythonModule } from '../../python/module.ts';
import { tokenizePython } from '../../python/tokenize.ts';
import { builtin, sortedBy } from './builtins.ts';
import { liftReturns } from './flow.ts';
import type { PyStatement } from '../../python/statements.ts';
import {
  type CelValue,
  type Frame,
  type Kit,
  type Place,
  Unreadable,
  type Value,
  columnSchema,
  fieldSchema,
  firstField,
  isSelfPath,
  literalCel,
  mapLiteral,
  pathKey,
  stored,
} from './values.ts';

import { ComprehensionReader } from './comprehensions.ts';
import { BOOLEAN, DATE, BUILTIN_TYPES, isTruth, shiftedDate, typesOf } from './methods.ts';

/**
 * Reads expressions of a tool body as CEL values and live places. The statement walker extends
 * it; `block` is its, for a helper's body inlined here.
 */
export abstract class ExpressionReader extends ComprehensionReader {
  // ---- expressions ----

  protected expr(e: PyExpr, frame: Frame): Value {
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
        if (!/^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(e.text))
          throw new Unreadable(`the number ${e.text}`);
        // 1e-6 is a float in Python, and written so in CEL: a digit before the exponent's point.
        const float = /[.eE]/.test(e.text);
        const text = /^\d+[eE]/.test(e.text) ? e.text.replace(/^(\d+)/, '$1.0') : e.text;
        return this.cel(text, [], undefined, float ? 'double' : 'int');
      }
      case 'str':
        if (e.fstring) return this.fstring(e.value, frame);
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
        const moved = (e.op === '+' || e.op === '-') && shiftedDate(left, e.op, right);
        if (moved) return this.cel(JSON.stringify(moved), [], DATE);
        if (e.op === '+' || e.op === '-' || e.op === '*' || e.op === '/')
          return this.arith(left, e.op, right);
        throw new Unreadable(`the operator ${e.op}`);
      }
      case 'neg': {
        const x = this.celOf(this.expr(e.x, frame));
        return this.cel(`-(${x.cel})`, [x], x.schema, x.numeric);
      }
      case 'not':
        return { ...this.not(this.bool(this.expr(e.x, frame))), schema: BOOLEAN };
      case 'bool': {
        const leftValue = this.expr(e.left, frame);
        const rightValue = this.expr(e.right, frame);
        // Python's `a or b` is a value (`speed or 0.0`): a when a is true to Python, else b.
        if (!isTruth(leftValue) || !isTruth(rightValue)) {
          const a = this.celOf(leftValue);
          const b = this.celOf(rightValue);
          const truth = this.truthOf(a);
          return e.op === 'or' ? this.ternary(truth, a, b) : this.ternary(truth, b, a);
        }
        const left = this.bool(leftValue);
        const right = this.bool(rightValue);
        return this.cel(
          `(${left.cel} ${e.op === 'and' ? '&&' : '||'} ${right.cel})`,
          [left, right],
          BOOLEAN,
        );
      }
      case 'cmp':
        return this.compare(e, frame);
      case 'if': {
        const cond = this.bool(this.expr(e.cond, frame));
        const a = this.celOf(this.expr(e.then, frame));
        const b = this.celOf(this.expr(e.else, frame));
        return this.ternary(cond, a, b);
      }
      case 'tuple':
        return { k: 'tuple', items: e.items.map((i) => this.expr(i, frame)) };
      case 'list':
      case 'set': {
        const items = e.items.map((i) => this.celOf(this.expr(i, frame)));
        return this.cel(`[${items.map((i) => i.cel).join(', ')}]`, items, { type: 'array' });
      }
      case 'dict': {
        // A map with text keys (an Enum's members are their values), as a CEL map literal.
        const entries = e.entries.map(([k, v]) => {
          const key = this.celOf(this.expr(k, frame));
          if (key.schema?.type !== 'string' && !/^"/.test(key.cel))
            throw new Unreadable(`a dict whose keys are not text (line ${this.line})`);
          return [key, this.celOf(this.expr(v, frame))] as const;
        });
        const values = entries.map(([, v]) => v);
        const kinds = new Set(
          values.map((v) => v.numeric ?? (v.schema?.type as string | undefined)),
        );
        const same = values.length > 0 && kinds.size === 1 && !kinds.has(undefined);
        const text = entries
          .map(([k, v]) => `${k.cel}: ${same ? v.cel : `dyn(${v.cel})`}`)
          .join(', ');
        // Each text key's value keeps its type, for what is read back by that key.
        const properties = Object.fromEntries(
          entries.flatMap(([k, v]) =>
            /^"(?:[^"\\]|\\.)*"$/.test(k.cel) && v.schema
              ? [[JSON.parse(k.cel) as string, v.schema]]
              : [],
          ),
        );
        return this.cel(`{${text}}`, entries.flat(), {
          type: 'object',
          ...(Object.keys(properties).length > 0 && { properties }),
          ...(same && values[0]?.schema && { additionalProperties: values[0].schema }),
        });
      }
      case 'comp':
        return this.comprehension(e, frame);
      case 'slice': {
        const x = this.celOf(this.expr(e.obj, frame));
        const bound = (b: PyExpr | undefined) =>
          b === undefined ? this.cel('null', []) : this.celOf(this.expr(b, frame));
        const [lower, upper] = [bound(e.lower), bound(e.upper)];
        return this.cel(`slice(${x.cel}, ${lower.cel}, ${upper.cel})`, [x, lower, upper], x.schema);
      }
      case 'lambda':
        throw new Unreadable(`a lambda other than sorted()'s key (line ${this.line})`);
    }
  }

  protected attr(obj: Value, name: string): Value {
    if (obj.k === 'self') {
      if (name === 'db') return { k: 'db', ...(obj.kit && { kit: obj.kit }) };
      // An environment's toolkits: the agent's and the user's.
      if (this.kits && obj.kit === undefined && (name === 'tools' || name === 'user_tools'))
        return { k: 'self', kit: name === 'tools' ? 'agent' : 'user' };
      // A class attribute with a value: that value (a model built from fields, a member, …).
      const attribute = obj.kit === undefined ? this.attributes[name] : undefined;
      if (attribute !== undefined) {
        const { tokens, problems } = tokenizePython(attribute);
        if (problems.length === 0)
          return this.celOf(
            this.expr(parsePyExpr(tokens), { locals: new Map(), when: [], dry: true }),
          );
      }
      throw new Unreadable(`it reads self.${name}`);
    }
    if (obj.k === 'db') {
      const tables = obj.kit && this.kits ? this.kits[obj.kit].tables : this.tables;
      const table = tables.find((t) => t.source === name);
      if (!table) throw new Unreadable(`self.db.${name} is not a table of the project`);
      // One record (a phone) is its one row, keyed by the table's name.
      if (table.record)
        return {
          k: 'place',
          table,
          key: this.cel(JSON.stringify(table.rows[0]?.[table.key] ?? table.source), [], {
            type: 'string',
          }),
          steps: [],
        };
      return { k: 'table', table };
    }
    // An Enum member's `.value` is the member itself: the project keeps members as their values.
    // (A member or None, past a test for None, is the member.)
    if (name === 'value' && (obj.k === 'cel' || obj.k === 'place')) {
      const options = Array.isArray(obj.schema?.anyOf) ? (obj.schema.anyOf as JsonSchema[]) : [];
      const member = obj.schema?.enum !== undefined ? obj.schema : options.find((o) => o.enum);
      if (member !== undefined) return { ...obj, schema: member };
      // Text and numbers have no `.value` in Python: one read so was an Enum member, kept as its
      // value.
      if (obj.schema?.type === 'string' || obj.schema?.type === 'integer') return obj;
      // Of a value whose type shows only at run time: a member (kept as its value, not a map) is
      // itself; a map's field "value" is that field.
      if (obj.schema === undefined || Object.keys(obj.schema).length === 0) {
        const x = this.celOf(obj);
        return this.cel(`(type(dyn(${x.cel})) == map ? dyn(${x.cel}).value : ${x.cel})`, [x]);
      }
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
    if (obj.k === 'class') {
      const members = this.enums[obj.name];
      const value = members?.[name];
      if (value === undefined)
        throw new Unreadable(`it reads ${obj.name}.${name} (line ${this.line})`);
      return this.cel(JSON.stringify(value), [], {
        type:
          typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'boolean' : 'number',
        enum: Object.values(members ?? {}),
      });
    }
    if (obj.k === 'cel') {
      if (obj.cel === 'null')
        throw new Unreadable(`it reads ".${name}" of None (line ${this.line})`);
      const schema = fieldSchema(obj.schema, name);
      // A field of a value read from the database is stored JSON: a number is a double.
      return this.cel(celSelect(obj.cel, name), [obj], schema, stored(schema));
    }
    throw new Unreadable(`it reads ".${name}" of a ${obj.k}`);
  }

  protected pending(place: Place, field: string): CelValue | undefined {
    const g = this.group;
    if (!g || g.table !== place.table || g.key.cel !== place.key.cel) return undefined;
    if (place.steps.length === 0) {
      const set = g.sets.get(field);
      return set === undefined ? undefined : this.cel(set, [], undefined, undefined, g.id);
    }
    const entry = g.nested.get(pathKey(place.steps));
    const set = entry?.fields.get(field);
    if (set !== undefined) return this.cel(set, [], undefined, undefined, g.id);
    // Another field of a model being changed is as it was; anything else inside the column
    // might have moved under it.
    const path = pathKey(place.steps);
    const elsewhere = [...g.nested.entries()].some(
      ([at, other]) => at !== path && firstField(other.place) === firstField(place),
    );
    if (g.sets.has(firstField(place)) || (elsewhere && entry === undefined) || elsewhere)
      throw new Unreadable(`it reads inside a column it is changing (line ${this.line})`);
    return undefined;
  }

  protected call(e: Extract<PyExpr, { t: 'call' }>, frame: Frame): Value {
    const { fn, args, kwargs } = e;
    const owner = fn.t === 'attr' && isSelfPath(fn.obj) ? this.expr(fn.obj, frame) : undefined;
    if (fn.t === 'attr' && owner?.k === 'self')
      return this.helper(
        fn.name,
        args.map((a) => this.expr(a, frame)),
        frame,
        owner.kit,
        kwargs.map(([k, v]) => [k, this.expr(v, frame)] as const),
      );
    if (fn.t === 'attr') {
      const obj = this.expr(fn.obj, frame);
      // A table is a dict of rows by key: its values are its rows, its keys their keys.
      if (obj.k === 'table' && args.length === 0 && fn.name === 'values') return this.celOf(obj);
      if (obj.k === 'table' && args.length === 0 && fn.name === 'keys') {
        const rows = this.celOf(obj);
        return this.cel(`${rows.cel}.map(r, ${celSelect('r', obj.table.key)})`, [rows], {
          type: 'array',
        });
      }
      const method = this.method(obj, fn.name, args, kwargs, frame);
      if (method !== undefined) return method;
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
    // A module-level function of the domain (`get_today()`), inlined like a helper.
    if (this.functions[fn.name] !== undefined && frame.locals.get(fn.name) === undefined)
      return this.helper(
        fn.name,
        args.map((a) => this.expr(a, frame)),
        frame,
        undefined,
        kwargs.map(([k, v]) => [k, this.expr(v, frame)] as const),
        true,
      );
    const dated = this.dateOf(fn.name, args, kwargs);
    if (dated !== undefined) return dated;
    const members = this.enums[fn.name];
    if (members !== undefined && args.length === 1 && kwargs.length === 0)
      return this.enumOf(fn.name, members, this.celOf(this.expr(args[0] as PyExpr, frame)), frame);
    if (fn.name === 'setattr' || fn.name === 'hasattr' || fn.name === 'getattr')
      return this.attrCall(fn.name, args, frame);
    if (/^[A-Z]/.test(fn.name) && args.length === 0) {
      // A model built from fields (`OrderPayment(amount=…)`): a map, with the model's defaults
      // for the fields left out, as pydantic fills them in.
      const given = kwargs.map(([k, v]) => [k, this.celOf(this.expr(v, frame))] as const);
      const named = new Set(given.map(([k]) => k));
      const defaults = Object.entries(this.modelDefaults[fn.name] ?? {})
        .filter(([k]) => !named.has(k))
        .map(([k, v]) => [k, this.cel(JSON.stringify(v), [])] as const);
      const fields = [...given, ...defaults];
      return {
        ...this.cel(
          mapLiteral(fields.map(([k, v]) => [k, v.cel])),
          fields.map(([, v]) => v),
          { type: 'object', title: fn.name },
        ),
        fields: new Map(fields),
      };
    }
    if (fn.name === 'sorted' && kwargs.length > 0)
      return sortedBy(args, kwargs, {
        cel: (text, from, schema, numeric) => this.cel(text, from, schema, numeric),
        list: (e, locals) => this.list(this.expr(e, locals ? { ...frame, locals } : frame)),
        value: (e, locals) => this.celOf(this.expr(e, locals ? { ...frame, locals } : frame)),
        bool: (e) => this.bool(this.expr(e, frame)),
        fresh: (base) => this.fresh(base),
        locals: frame.locals,
        line: this.line,
      });
    if (kwargs.length > 0) throw new Unreadable(`${fn.name}() with keyword arguments`);
    const values = () => args.map((a) => this.celOf(this.expr(a, frame)));
    const plain = builtin(fn.name, args.length, values, {
      cel: (text, from, schema, numeric) => this.cel(text, from, schema, numeric),
      text: (value) => this.pythonText(value),
    });
    if (plain !== undefined) return plain;
    switch (fn.name) {
      case 'isinstance': {
        const [subject, cls] = args;
        if (!subject || cls?.t !== 'name') break;
        const builtin = BUILTIN_TYPES[cls.name];
        if (builtin !== undefined) {
          const x = this.celOf(this.expr(subject, frame));
          // Every type the value may have (each option of a Union) must answer alike.
          const types = typesOf(x.schema, x.numeric);
          const answers = new Set(types.map((t) => builtin.includes(t)));
          if (types.length === 0 || answers.size !== 1)
            throw new Unreadable(
              `isinstance of ${cls.name} on a value of unknown type (line ${this.line})`,
            );
          return this.cel(answers.has(true) ? 'true' : 'false', [x], BOOLEAN);
        }
        const tag = this.classes.get(cls.name);
        if (!tag)
          throw new Unreadable(`isinstance of ${cls.name}, which no column's data tells apart`);
        const x = this.celOf(this.expr(subject, frame));
        return this.cel(`${celSelect(x.cel, tag.field)} == ${JSON.stringify(tag.value)}`, [x]);
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

  /** The helpers being inlined, innermost last. */
  private readonly calling: string[] = [];

  /** Inlines `self._helper(…)`: its failures count here; its value is what it returns. */
  protected helper(
    name: string,
    args: readonly Value[],
    frame: Frame,
    kit?: Kit,
    kwargs: ReadonlyArray<readonly [string, Value]> = [],
    module = false,
  ): Value {
    const id = `${module ? '.' : (kit ?? '')}:${name}`;
    if (!this.helpers.has(id)) {
      const sources = module
        ? this.functions
        : kit && this.kits
          ? this.kits[kit].helpers
          : this.helperSources;
      const source = sources[name];
      this.helpers.set(
        id,
        source === undefined ? undefined : readPythonModule(source).functions[0],
      );
    }
    const fn = this.helpers.get(id);
    if (fn === undefined)
      throw new Unreadable(`it calls self.${name}(), whose source is not beside it`);
    const params = fn.params.filter((p) => p.name !== 'self');
    const named = new Map(kwargs);
    if (params.some((p) => p.kind !== 'plain') || args.length > params.length)
      throw new Unreadable(`self.${name}() is called with ${args.length} arguments`);
    const locals = new Map<string, Value>(
      module ? [] : [['self', { k: 'self', ...(kit && { kit }) }]],
    );
    for (const [i, p] of params.entries()) {
      // Positional, then by name, then the parameter's default when it is a plain literal.
      const given = args[i] ?? named.get(p.name);
      const fallback =
        given === undefined && p.default !== undefined ? literalCel(p.default) : undefined;
      if (given === undefined && fallback === undefined)
        throw new Unreadable(`self.${name}() is called without its "${p.name}"`);
      locals.set(p.name, given ?? this.cel(fallback ?? 'null', []));
    }
    if (this.calling.includes(id)) throw new Unreadable(`self.${name}() calls itself`);
    this.depth++;
    this.calling.push(id);
    try {
      return this.bodyValue(liftReturns(fn.body), { ...frame, locals });
    } finally {
      this.depth--;
      this.calling.pop();
    }
  }

  /** Runs a body whose returns end their paths (`liftReturns`) and gives what it returns. */
  protected abstract bodyValue(statements: readonly PyStatement[], frame: Frame): Value;

  /** Walks statements (the statement reader's), for a helper's body. */
  protected abstract block(statements: readonly PyStatement[], frame: Frame): void;
}
