import { celSelect } from '../../../celVariables.ts';
import type { JsonSchema } from '../../domain.ts';
import type { PyExpr } from '../../python/expression.ts';
import { parsePyExpr } from '../../python/expression.ts';
import { isNotLiteral, literalOfText } from '../../python/literal.ts';
import { readPythonModule } from '../../python/module.ts';
import { tokenizePython } from '../../python/tokenize.ts';
import { liftReturns } from './flow.ts';
import { fstringParts } from './fstring.ts';
import type { PyStatement } from '../../python/statements.ts';
import {
  type CelValue,
  type Frame,
  type Kit,
  OPPOSITE,
  type Place,
  Unreadable,
  type Value,
  celName,
  columnSchema,
  entrySchema,
  fieldSchema,
  firstField,
  itemSchema,
  mapLiteral,
  pathKey,
  stored,
  withReads,
} from './values.ts';

import { ReaderBase } from './base.ts';

const BOOLEAN = { type: 'boolean' } as const;
const DATE = { type: 'string', format: 'date' } as const;

/** A date constant's parts (`"2025-02-25"`), or undefined. */
function dateParts(cel: string): { year: number; month: number; day: number } | undefined {
  const m = /^"(\d{4})-(\d{2})-(\d{2})"$/.exec(cel);
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : undefined;
}

/** The date as text, or undefined when there is no such day. */
function dateText(year: number, month: number, day: number): string | undefined {
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day)
    return undefined;
  return at.toISOString().slice(0, 10);
}

/** A date constant moved by a timedelta of whole days, or undefined when either is not one. */
function shiftedDate(left: CelValue, op: '+' | '-', right: CelValue): string | undefined {
  const parts = left.schema?.format === 'date' ? dateParts(left.cel) : undefined;
  const days = right.schema?.format === 'timedelta' ? right.schema.days : undefined;
  if (parts === undefined || typeof days !== 'number') return undefined;
  const at = new Date(
    Date.UTC(parts.year, parts.month - 1, parts.day + (op === '+' ? days : -days)),
  );
  return at.toISOString().slice(0, 10);
}

/** The JSON Schema types each Python builtin `isinstance` names stands for. */
const BUILTIN_TYPES: Readonly<Record<string, readonly string[]>> = {
  str: ['string'],
  int: ['integer'],
  float: ['number', 'integer'],
  bool: ['boolean'],
  dict: ['object'],
  list: ['array'],
};
/**
 * Reads expressions of a tool body as CEL values and live places. The statement walker extends
 * it; `block` is its, for a helper's body inlined here.
 */
export abstract class ExpressionReader extends ReaderBase {
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
        return this.cel(`{${text}}`, entries.flat(), {
          type: 'object',
          ...(same && values[0]?.schema && { additionalProperties: values[0].schema }),
        });
      }
      case 'comp':
        return this.comprehension(e, frame);
    }
  }

  /**
   * An f-string as CEL: its text and each `{expression}` joined, each value written as Python
   * writes it (`decimalText` for a float, `fixed` for `:.2f`, True/False for a truth value). A
   * value whose Python type is not known from its schema, or another format spec or conversion
   * (`{x:>8}`, `{x!r}`), is not followed.
   */
  protected fstring(body: string, frame: Frame): Value {
    const parts: CelValue[] = [];
    for (const part of fstringParts(body)) {
      if (typeof part === 'string') {
        parts.push(this.cel(JSON.stringify(part), [], { type: 'string' }));
        continue;
      }
      const { tokens, problems } = tokenizePython(part.expr);
      const digits = part.spec === undefined ? undefined : /^:\.(\d{1,2})f$/.exec(part.spec)?.[1];
      if (problems.length > 0 || (part.spec !== undefined && digits === undefined))
        throw new Unreadable(
          `an f-string part "{${part.expr}${part.spec ?? ''}}" (line ${this.line})`,
        );
      const value = this.celOf(this.expr(parsePyExpr(tokens), frame));
      const text = digits !== undefined ? `fixed(${value.cel}, ${digits})` : this.pythonText(value);
      if (text === undefined)
        throw new Unreadable(
          `an f-string part "{${part.expr}}" whose Python type is not known (line ${this.line})`,
        );
      parts.push(this.cel(text, [value], { type: 'string' }));
    }
    if (parts.length === 0) return this.cel('""', [], { type: 'string' });
    return this.cel(parts.map((p) => p.cel).join(' + '), parts, { type: 'string' });
  }

  /** Whether a value is true to Python, as CEL, by its type (None, 0, "" and [] are false). */
  protected truthOf(value: CelValue): CelValue {
    const types = typesOf(value.schema, value.numeric);
    if (value.cel === 'null') return this.cel('false', [value]);
    const x = value.cel;
    const tests: string[] = [];
    for (const type of new Set(types)) {
      if (type === 'null') continue;
      if (type === 'boolean') tests.push(`dyn(${x}) == true`);
      else if (type === 'integer') tests.push(`dyn(${x}) != 0`);
      else if (type === 'number') tests.push(`dyn(${x}) != 0.0`);
      else if (type === 'string') tests.push(`dyn(${x}) != ""`);
      else if (type === 'array' || type === 'object') tests.push(`size(${x}) > 0`);
      else throw new Unreadable(`whether ${x} is true to Python (line ${this.line})`);
    }
    if (tests.length !== 1)
      throw new Unreadable(`an "or"/"and" of a value of unknown type (line ${this.line})`);
    const test = types.includes('null')
      ? `(dyn(${x}) != null && ${tests[0]})`
      : (tests[0] ?? 'false');
    return this.cel(test, [value], BOOLEAN);
  }

  /** A value as `str()` writes it in Python, as CEL; undefined when its type is not known. */
  protected pythonText(value: CelValue): string | undefined {
    const type = value.schema?.type;
    if (type === 'string' || value.schema?.enum !== undefined) return value.cel;
    if (type === 'boolean') return `(${value.cel} ? "True" : "False")`;
    if (type === 'integer') return `string(int(${value.cel}))`;
    if (type === 'number' || value.numeric === 'double') return `decimalText(${value.cel})`;
    if (value.numeric === 'int') return `string(${value.cel})`;
    return undefined;
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

  protected index(obj: Value, indexExpr: PyExpr, frame: Frame): Value {
    if (obj.k === 'tuple' && indexExpr.t === 'num' && /^\d+$/.test(indexExpr.text)) {
      const item = obj.items[Number(indexExpr.text)];
      if (item === undefined)
        throw new Unreadable(`a tuple index out of range (line ${this.line})`);
      return item;
    }
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
      if (obj.cel === 'null') throw new Unreadable(`it indexes None (line ${this.line})`);
      const schema =
        obj.schema?.type === 'array' ? itemSchema(obj.schema) : entrySchema(obj.schema);
      const at = /^-\d+$/.test(index.cel)
        ? `size(${obj.cel}) ${index.cel.replace('-', '- ')}`
        : index.cel;
      return this.cel(`${obj.cel}[${at}]`, [obj, index], schema, stored(schema));
    }
    throw new Unreadable(`it indexes a ${obj.k}`);
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

  /**
   * A method of a value that is not a table: a map's `get`, `keys`, `values`; a model's
   * `model_copy`/`model_dump` (a copy: its value now); text's `lower`/`upper`. Undefined for
   * any other, which the caller reads or refuses.
   */
  protected method(
    obj: Value,
    name: string,
    args: readonly PyExpr[],
    kwargs: ReadonlyArray<readonly [string, PyExpr]>,
    frame: Frame,
  ): Value | undefined {
    if (obj.k !== 'cel' && obj.k !== 'place') return undefined;
    if ((name === 'model_copy' || name === 'model_dump' || name === 'copy') && args.length === 0) {
      if (kwargs.some(([k]) => k !== 'deep'))
        throw new Unreadable(
          `${name}() with ${kwargs.map(([k]) => k).join(', ')} (line ${this.line})`,
        );
      return this.celOf(obj);
    }
    // A date constant's `replace(day=1)`: another date constant.
    if (
      name === 'replace' &&
      obj.k === 'cel' &&
      obj.schema?.format === 'date' &&
      args.length === 0
    ) {
      const parts = dateParts(obj.cel);
      if (parts === undefined)
        throw new Unreadable(`replace() on a date it cannot know (line ${this.line})`);
      for (const [k, v] of kwargs) {
        const n = v.t === 'num' && /^\d+$/.test(v.text) ? Number(v.text) : NaN;
        if (!['year', 'month', 'day'].includes(k) || Number.isNaN(n))
          throw new Unreadable(`replace(${k}=…) on a date (line ${this.line})`);
        parts[k as 'year' | 'month' | 'day'] = n;
      }
      const moved = dateText(parts.year, parts.month, parts.day);
      if (moved === undefined) throw new Unreadable(`replace() makes no date (line ${this.line})`);
      return this.cel(JSON.stringify(moved), [], DATE);
    }
    if (kwargs.length > 0) return undefined;
    const isMap = obj.schema?.type === 'object';
    if (name === 'get' && isMap && (args.length === 1 || args.length === 2)) {
      const key = this.celOf(this.expr(args[0] as PyExpr, frame));
      const fallback = args[1] ? this.celOf(this.expr(args[1], frame)) : this.cel('null', []);
      const map = this.celOf(obj);
      const has = this.cel(`${key.cel} in ${map.cel}`, [key, map], BOOLEAN);
      if (obj.k === 'place' && args.length === 1) {
        // A live entry, found or not: `if entry:` tests that it is there.
        const schema = entrySchema(obj.schema);
        return {
          k: 'place',
          table: obj.table,
          key: obj.key,
          steps: [...obj.steps, { key }],
          exists: has.cel,
          ...(schema && { schema }),
        };
      }
      const schema = entrySchema(obj.schema);
      const entry = this.cel(`${map.cel}[${key.cel}]`, [map, key], schema, stored(schema));
      return this.ternary(has, entry, fallback);
    }
    if ((name === 'keys' || name === 'values') && isMap && args.length === 0) {
      const map = this.celOf(obj);
      const k = this.fresh('k');
      return this.cel(
        name === 'keys' ? `${map.cel}.map(${k}, ${k})` : `${map.cel}.map(${k}, ${map.cel}[${k}])`,
        [map],
        { type: 'array', ...(name === 'keys' ? { items: { type: 'string' } } : {}) },
      );
    }
    if (name === 'join' && args.length === 1 && obj.k === 'cel' && obj.schema?.type === 'string') {
      const list = this.celOf(this.expr(args[0] as PyExpr, frame));
      return this.cel(`${list.cel}.join(${obj.cel})`, [list, obj], { type: 'string' });
    }
    const text = typesOf(obj.schema);
    if (
      (name === 'lower' || name === 'upper') &&
      args.length === 0 &&
      text.includes('string') &&
      text.every((t) => t === 'string' || t === 'null')
    ) {
      const text = this.celOf(obj);
      return this.cel(`${text.cel}.${name}Ascii()`, [text], { type: 'string' });
    }
    return undefined;
  }

  /** `Enum(x)`: x itself when it is one of the members' values, else the call fails. */
  protected enumOf(
    name: string,
    members: Readonly<Record<string, string | number | boolean>>,
    value: CelValue,
    frame: Frame,
  ): CelValue {
    const values = Object.values(members);
    const list = `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
    const invalid = this.cel(`!(${value.cel} in ${list})`, [value], BOOLEAN);
    this.fail(`The value is not a valid ${name}`, { ...frame, when: [...frame.when, invalid] });
    return { ...value, schema: { ...(value.schema ?? {}), enum: values } };
  }

  /**
   * `date(2025, 2, 25)` and `datetime(2025, 2, 25, 12, 8)` with literal parts: the text pydantic
   * writes for them ("2025-02-25", "2025-02-25T12:08:00").
   */
  protected dateOf(
    name: string,
    args: readonly PyExpr[],
    kwargs: ReadonlyArray<readonly [string, PyExpr]>,
  ): CelValue | undefined {
    if (name === 'timedelta') {
      // Whole days or weeks, written as literals: the shift a date constant takes.
      const first = args[0];
      const start =
        args.length === 0 ? 0 : args.length === 1 && first?.t === 'num' ? Number(first.text) : NaN;
      const days = kwargs.reduce((sum, [k, v]) => {
        const n = v.t === 'num' && /^\d+$/.test(v.text) ? Number(v.text) : NaN;
        return sum + (k === 'days' ? n : k === 'weeks' ? 7 * n : NaN);
      }, start);
      if (!Number.isInteger(days))
        throw new Unreadable(`a timedelta that is not whole days (line ${this.line})`);
      return this.cel(`"timedelta(${days})"`, [], { type: 'string', format: 'timedelta', days });
    }
    if ((name !== 'date' && name !== 'datetime') || kwargs.length > 0) return undefined;
    const parts = args.map((a) => (a.t === 'num' && /^\d+$/.test(a.text) ? Number(a.text) : NaN));
    const size = name === 'date' ? [3, 3] : [3, 6];
    if (parts.some(Number.isNaN) || parts.length < (size[0] ?? 3) || parts.length > (size[1] ?? 3))
      throw new Unreadable(`${name}() of parts that are not whole numbers (line ${this.line})`);
    const [y = 0, m = 1, d = 1, h = 0, min = 0, sec = 0] = parts;
    const two = (n: number) => String(n).padStart(2, '0');
    const day = `${String(y).padStart(4, '0')}-${two(m)}-${two(d)}`;
    const text = name === 'date' ? day : `${day}T${two(h)}:${two(min)}:${two(sec)}`;
    return this.cel(
      JSON.stringify(text),
      [],
      name === 'date' ? DATE : { type: 'string', format: 'date-time' },
    );
  }

  /** `setattr(obj, name, value)`, `hasattr(obj, name)`, `getattr(obj, name)` on a model in a row. */
  protected attrCall(fn: string, args: readonly PyExpr[], frame: Frame): Value {
    const [objExpr, nameExpr, valueExpr] = args;
    if (objExpr === undefined || nameExpr === undefined)
      throw new Unreadable(`${fn}() with ${args.length} arguments (line ${this.line})`);
    if (nameExpr.t === 'str' && !nameExpr.fstring) {
      const attr: Extract<PyExpr, { t: 'attr' }> = {
        t: 'attr',
        obj: objExpr,
        name: nameExpr.value,
      };
      if (fn === 'getattr') return this.expr(attr, frame);
      if (fn === 'setattr' && valueExpr) {
        this.setField(attr, this.expr(valueExpr, frame), frame);
        return this.cel('null', []);
      }
    }
    const obj = this.expr(objExpr, frame);
    const key = this.celOf(this.expr(nameExpr, frame));
    const map = this.celOf(obj);
    if (fn === 'hasattr') return this.cel(`${key.cel} in ${map.cel}`, [key, map], BOOLEAN);
    if (fn === 'getattr') return this.cel(`${map.cel}[${key.cel}]`, [map, key]);
    if (valueExpr === undefined || obj.k !== 'place' || obj.steps.length === 0)
      throw new Unreadable(
        `setattr() by a name it computes, on something not in a row (line ${this.line})`,
      );
    // A field named at run time: the model, as a map, with that entry replaced.
    const value = this.celOf(this.expr(valueExpr, frame));
    const last = obj.steps[obj.steps.length - 1];
    if (last === undefined || !('field' in last))
      throw new Unreadable(`setattr() on an item of a list (line ${this.line})`);
    const { exists: _e, schema: _s, ...rest } = obj;
    const owner: Place = { ...rest, steps: obj.steps.slice(0, -1) };
    this.write(
      owner,
      last.field,
      (current) => this.cel(`put(${current.cel}, ${key.cel}, ${value.cel})`, [current, key, value]),
      frame,
    );
    return this.cel('null', []);
  }

  /** Sets a field (`obj.name = value`); the statement reader's. */
  protected abstract setField(
    target: Extract<PyExpr, { t: 'attr' }>,
    value: Value,
    frame: Frame,
  ): void;
  /** The call fails with `error` when the frame's conditions hold; the statement reader's. */
  protected abstract fail(error: string, frame: Frame): void;
  /** Sets `field` of a place; the change reader's. */
  protected abstract write(
    place: Place,
    field: string,
    next: (current: CelValue) => CelValue,
    frame: Frame,
    append?: boolean,
  ): void;

  /** A comprehension's list, its variable's CEL name, its filter and its item, read once. */
  protected over(gen: Extract<PyExpr, { t: 'comp' }>, frame: Frame) {
    if (gen.vars.length !== 1) throw new Unreadable('a comprehension that unpacks');
    const source = this.expr(gen.iter, frame);
    const list = this.list(source);
    const name = celName(gen.vars[0] ?? 'x');
    const locals = new Map(frame.locals);
    locals.set(gen.vars[0] ?? '', this.cel(name, [list], itemSchema(list.schema)));
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
    if (!cond || item.k !== 'cel' || item.cel !== name)
      throw new Unreadable('a next() that is not a search');
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

  protected compare(e: Extract<PyExpr, { t: 'cmp' }>, frame: Frame): CelValue {
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
      // CEL will not compare a text or a number with null: as `dyn`, any value may be.
      const subject = left.cel === 'null' ? left.cel : `dyn(${left.cel})`;
      return {
        ...this.cel(`${subject} ${negated ? '!=' : '=='} null`, [left], BOOLEAN),
        opposite: `${subject} ${negated ? '==' : '!='} null`,
      };
    }
    const rightValue = this.expr(e.right, frame);
    if (e.op === 'in' || e.op === 'not in') {
      const left = this.celOf(leftValue);
      let test: CelValue;
      if (rightValue.k === 'table') {
        const r = 'r';
        test = this.cel(
          `db.${rightValue.table.name}.exists(${r}, ${celSelect(r, rightValue.table.key)} == ${left.cel})`,
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
      ...this.cel(`${left.cel} ${e.op} ${right.cel}`, [left, right], BOOLEAN),
      opposite: `${left.cel} ${OPPOSITE[e.op] ?? '!='} ${right.cel}`,
    };
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

/** The JSON Schema types a value may have: each option of a Union (`anyOf`), else its own. */
function typesOf(schema: JsonSchema | undefined, numeric?: 'int' | 'double'): string[] {
  if (schema === undefined)
    return numeric === 'int' ? ['integer'] : numeric === 'double' ? ['number'] : [];
  if (Array.isArray(schema.anyOf)) {
    const options = (schema.anyOf as JsonSchema[]).map((o) => typesOf(o));
    return options.some((o) => o.length === 0) ? [] : options.flat();
  }
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))
    return ['string'];
  return numeric === 'int' ? ['integer'] : numeric === 'double' ? ['number'] : [];
}

/** `self`, `self.tools` or `self.user_tools`: where a method call names a toolkit. */
function isSelfPath(e: PyExpr): boolean {
  if (e.t === 'name') return e.name === 'self';
  return (
    e.t === 'attr' &&
    e.obj.t === 'name' &&
    e.obj.name === 'self' &&
    (e.name === 'tools' || e.name === 'user_tools')
  );
}

/** A parameter's default written as a literal (`= None`, `= 12`, `= "x"`), as CEL. */
function literalCel(text: string): string | undefined {
  const value = literalOfText(text);
  return isNotLiteral(value) ? undefined : JSON.stringify(value);
}

/** Whether a value is a truth value (a comparison, a test), which `and`/`or` join as such. */
function isTruth(value: Value): boolean {
  // A row, or a value in one, is tested as the reader tests it (found, or its truth).
  if (value.k === 'place') return true;
  if (value.k !== 'cel') return false;
  if (value.cel === 'true' || value.cel === 'false') return true;
  const types = typesOf(value.schema, value.numeric);
  return types.length === 0 || types.every((t) => t === 'boolean');
}
