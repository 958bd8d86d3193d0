import { celSelect } from '../../../celVariables.ts';
import type { JsonSchema } from '../../domain.ts';
import type { PyExpr } from '../../python/expression.ts';
import { parsePyExpr } from '../../python/expression.ts';
import { tokenizePython } from '../../python/tokenize.ts';
import { ReaderBase } from './base.ts';
import { fstringParts } from './fstring.ts';
import {
  type CelValue,
  type Frame,
  OPPOSITE,
  type Place,
  type Value,
  Unreadable,
  entrySchema,
  itemSchema,
  stored,
  withReads,
} from './values.ts';

// The values Python code makes and asks about, below the expression reader: f-strings, truth,
// methods of values (maps, models, text, dates), Enum conversions, setattr and its kin,
// comparisons (comprehensions and searches: comprehensions.ts). The expression reader (`expressions.ts`) builds on
// it; `expr` and the changes it may make are its and the layers' above.

export const BOOLEAN = { type: 'boolean' } as const;
export const DATE = { type: 'string', format: 'date' } as const;

/** A date constant's parts (`"2025-02-25"`), or undefined. */
export function dateParts(cel: string): { year: number; month: number; day: number } | undefined {
  const m = /^"(\d{4})-(\d{2})-(\d{2})"$/.exec(cel);
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : undefined;
}

/** The date as text, or undefined when there is no such day. */
export function dateText(year: number, month: number, day: number): string | undefined {
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day)
    return undefined;
  return at.toISOString().slice(0, 10);
}

/** A date constant moved by a timedelta of whole days, or undefined when either is not one. */
export function shiftedDate(left: CelValue, op: '+' | '-', right: CelValue): string | undefined {
  const parts = left.schema?.format === 'date' ? dateParts(left.cel) : undefined;
  const days = right.schema?.format === 'timedelta' ? right.schema.days : undefined;
  if (parts === undefined || typeof days !== 'number') return undefined;
  const at = new Date(
    Date.UTC(parts.year, parts.month - 1, parts.day + (op === '+' ? days : -days)),
  );
  return at.toISOString().slice(0, 10);
}

/** The JSON Schema types each Python builtin `isinstance` names stands for. */
export const BUILTIN_TYPES: Readonly<Record<string, readonly string[]>> = {
  str: ['string'],
  int: ['integer'],
  float: ['number', 'integer'],
  bool: ['boolean'],
  dict: ['object'],
  list: ['array'],
};

/** The JSON Schema types a value may have: each option of a Union (`anyOf`), else its own. */
export function typesOf(schema: JsonSchema | undefined, numeric?: 'int' | 'double'): string[] {
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

/** Whether a value is a truth value (a comparison, a test), which `and`/`or` join as such. */
export function isTruth(value: Value): boolean {
  // A row, or a value in one, is tested as the reader tests it (found, or its truth).
  if (value.k === 'place') return true;
  if (value.k !== 'cel') return false;
  if (value.cel === 'true' || value.cel === 'false') return true;
  const types = typesOf(value.schema, value.numeric);
  return types.length === 0 || types.every((t) => t === 'boolean');
}

/** Reads what Python values do and are asked (see the top of the file). */
export abstract class ValueReader extends ReaderBase {
  /** An expression as a value: the expression reader's. */
  protected abstract expr(e: PyExpr, frame: Frame): Value;

  /**
   * An f-string as CEL: its text and each `{expression}` joined, each value written as Python
   * writes it (`decimalText` for a float, `fixed` for `:.2f`, True/False for a truth value, and
   * `pyText` for a value whose type shows only at run time). Another format spec or conversion
   * (`{x:>8}`, `{x!r}`) is not followed.
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
      parts.push(this.cel(text, [value], { type: 'string' }));
    }
    if (parts.length === 0) return this.cel('""', [], { type: 'string' });
    return this.cel(parts.map((p) => p.cel).join(' + '), parts, { type: 'string' });
  }

  /**
   * A value as a test. A field of a row that is not a truth value (`if device.vpn_details:`) is
   * tested as Python tests it, by its type, as is any value whose type is known and not a truth
   * value; the rest as the base reader tests them.
   */
  protected override bool(value: Value): CelValue {
    const field = value.k === 'place' && value.steps.length > 0 && value.exists === undefined;
    // An entry of a map whose type the map's literal gave (`status["details"]`).
    const entry =
      value.k === 'cel' && value.schema !== undefined && value.schema.type !== 'boolean';
    if (!field && !entry) return super.bool(value);
    const x = this.celOf(value);
    const types = typesOf(x.schema, x.numeric);
    return types.length === 0 || types.every((t) => t === 'boolean') ? x : this.truthOf(x);
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

  /**
   * A value as `str()` writes it in Python, as CEL: by its schema's type, else by what it is at
   * run time (`pyText`).
   */
  protected pythonText(value: CelValue): string {
    const type = value.schema?.type;
    if (type === 'string' || value.schema?.enum !== undefined) return value.cel;
    if (type === 'boolean') return `(${value.cel} ? "True" : "False")`;
    if (type === 'integer') return `string(int(${value.cel}))`;
    if (type === 'number' || value.numeric === 'double') return `decimalText(${value.cel})`;
    if (value.numeric === 'int') return `string(${value.cel})`;
    // Its type is known only when the tool runs (none given, or one of several): Python's str()
    // of what it turns out to be, an error for a whole number that may have been an int or a
    // float (pythonValues.ts).
    return `pyText(${value.cel})`;
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
      return this.cel(`(${list.cel}).join(${obj.cel})`, [list, obj], { type: 'string' });
    }
    const text = typesOf(obj.schema);
    // Text, or a value of no known type: CEL fails the call on anything but text, as Python
    // fails (AttributeError) on anything without the method.
    if (
      (name === 'lower' || name === 'upper') &&
      args.length === 0 &&
      (text.length === 0 ||
        (text.includes('string') && text.every((t) => t === 'string' || t === 'null')))
    ) {
      const value = this.celOf(obj);
      return this.cel(`dyn(${value.cel}).${name}Ascii()`, [value], { type: 'string' });
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

  /** `obj[i]`: a tuple's item, a table's row, a place deeper in a row, a list's or map's entry. */
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
      // A map literal read by one of its text keys: that entry's type.
      const key = /^"(?:[^"\\]|\\.)*"$/.test(index.cel)
        ? (JSON.parse(index.cel) as string)
        : undefined;
      const properties = obj.schema?.properties as Record<string, JsonSchema> | undefined;
      const schema =
        (key !== undefined ? properties?.[key] : undefined) ??
        (obj.schema?.type === 'array' ? itemSchema(obj.schema) : entrySchema(obj.schema));
      const at = /^-\d+$/.test(index.cel)
        ? `size(${obj.cel}) ${index.cel.replace('-', '- ')}`
        : index.cel;
      return this.cel(`${obj.cel}[${at}]`, [obj, index], schema, stored(schema));
    }
    throw new Unreadable(`it indexes a ${obj.k}`);
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
}
