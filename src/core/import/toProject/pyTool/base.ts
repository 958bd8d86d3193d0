import { celSelect } from '../../../celVariables.ts';
import type { JsonSchema, PyEnums, PyKnown } from '../../domain.ts';
import type { PyFunction } from '../../python/module.ts';
import type { TablePlan } from '../database.ts';
import type { Effect } from './values.ts';
import type { Requirement } from '../requires.ts';
import { negate } from '../requires.ts';
import {
  type CelValue,
  type Frame,
  type Group,
  type Kits,
  type Numeric,
  type Place,
  Unreadable,
  type Value,
  celName,
  discriminators,
  firstField,
  stored,
  withReads,
} from './values.ts';

/**
 * What the Python tool reader knows (arguments, tables, helpers) and has gathered (failures,
 * effects, the pending change), and the small steps every layer takes: a value's CEL, a place
 * read from the database, names of its own.
 */
export abstract class ReaderBase {
  protected readonly helpers = new Map<string, PyFunction | undefined>();
  protected readonly helperSources: Readonly<Record<string, string>>;
  protected readonly parameters: { properties: Record<string, JsonSchema> };
  protected readonly tables: readonly TablePlan[];
  protected readonly classes: Map<string, { field: string; value: string }>;
  protected readonly requires: Requirement[] = [];
  protected readonly effects: (Effect & { writes: Set<string>; epoch: number })[] = [];
  protected readonly notes: string[] = [];
  protected readonly names = new Set<string>();
  protected group: (Group & { frame: Frame }) | undefined;
  protected epoch = 0;
  protected groups = 0;
  protected line = 0;
  /** The tool's first line in its file; lines inside a helper are reported at its call. */
  protected readonly firstLine: number;
  protected depth = 0;
  /** For an environment's code (`sync_tools`): the toolkits `self.tools`, `self.user_tools`. */
  kits: Kits | undefined;
  /** The toolkit's attributes with a value, as source: `self.<name>` reads as that value. */
  attributes: Readonly<Record<string, string>> = {};
  /** The domain's Enum classes: `LineStatus.ACTIVE` reads as its value. */
  protected readonly enums: PyEnums;
  /** Module-level functions (`get_today()`), as source: a call inlines one like a helper. */
  protected readonly functions: Readonly<Record<string, string>>;
  /** Each model class's field defaults: a model built without them has them. */
  protected readonly modelDefaults: NonNullable<PyKnown['modelDefaults']>;

  constructor(
    helpers: Readonly<Record<string, string>>,
    parameters: { properties: Record<string, JsonSchema> },
    tables: readonly TablePlan[],
    firstLine: number,
    known: PyKnown,
  ) {
    this.enums = known.enums ?? {};
    this.functions = known.functions ?? {};
    this.modelDefaults = known.modelDefaults ?? {};
    this.firstLine = firstLine;
    this.helperSources = helpers;
    this.parameters = parameters;
    this.tables = tables;
    this.classes = discriminators(tables);
  }

  // ---- helpers ----

  protected celOf(value: Value): CelValue {
    if (value.k === 'cel') return value;
    if (value.k === 'place') return this.read(value);
    if (value.k === 'table') {
      // The table's rows as they are now: a change still being gathered for it would be missed.
      if (this.group?.table === value.table)
        throw new Unreadable('it reads a whole table while changing one of its rows');
      const rows = this.cel(`db.${value.table.name}`, [], {
        type: 'array',
        items: { type: 'object' },
      });
      // Every row and column: a later change to any of them conflicts with this read.
      return { ...rows, reads: withReads(rows.reads, [`${value.table.name}.*`], this.epoch) };
    }
    if (value.k === 'unset') throw new Unreadable(value.why);
    if (value.k === 'tuple') {
      const items = value.items.map((i) => this.celOf(i));
      const kinds = new Set(items.map((i) => i.numeric ?? (i.schema?.type as string | undefined)));
      const same = kinds.size <= 1 && !kinds.has(undefined);
      return this.cel(`[${items.map((i) => (same ? i.cel : `dyn(${i.cel})`)).join(', ')}]`, items, {
        type: 'array',
      });
    }
    throw new Unreadable(`it uses ${value.k === 'class' ? value.name : value.k} as a value`);
  }

  protected list(value: Value): CelValue {
    const list = this.celOf(value);
    if (list.schema?.type === 'object') {
      throw new Unreadable('it walks a map');
    }
    // Python walks text character by character.
    if (list.schema?.type === 'string')
      return this.cel(`chars(${list.cel})`, [list], { type: 'array', items: { type: 'string' } });
    return list;
  }

  /** A place's value now, as CEL over `db`. */
  protected read(place: Place): CelValue {
    // Each look-up's `r` is its own: CEL scopes a macro's variable to the macro.
    const r = 'r';
    const row = `db.${place.table.name}.filter(${r}, ${celSelect(r, place.table.key)} == ${place.key.cel})[0]`;
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

  protected renderRow(place: Place, row: string): string {
    let out = row;
    for (const step of place.steps) {
      if ('field' in step) out = celSelect(out, step.field);
      else if ('key' in step) out += `[${step.key.cel}]`;
      else out += `.filter(${step.match.name}, ${step.match.cond.cel})[0]`;
    }
    return out;
  }

  protected bool(value: Value): CelValue {
    if (value.k === 'place' && value.exists !== undefined)
      return this.cel(value.exists, [this.read(value)]);
    // A row found for certain is a model object, which Python counts as true.
    if (value.k === 'place' && value.steps.length === 0) return this.cel('true', [value.key]);
    return this.celOf(value);
  }

  /**
   * `cond ? a : b` as CEL, whose two branches must be of one type: a branch whose type may
   * differ from the other's (None beside a number, an int beside a double) is wrapped in `dyn`.
   */
  protected ternary(cond: CelValue, a: CelValue, b: CelValue): CelValue {
    const kind = (v: CelValue) =>
      v.cel === 'null' ? 'null' : (v.numeric ?? (v.schema?.type as string | undefined));
    const same = kind(a) !== undefined && kind(a) === kind(b);
    const wrap = (v: CelValue) => (same ? v.cel : `dyn(${v.cel})`);
    // A value or None: its type, or null.
    const typed = (v: CelValue): JsonSchema | undefined =>
      v.schema ??
      (v.numeric === 'int'
        ? { type: 'integer' }
        : v.numeric === 'double'
          ? { type: 'number' }
          : v.cel === 'true' || v.cel === 'false'
            ? { type: 'boolean' }
            : undefined);
    const none = a.cel === 'null' ? b : b.cel === 'null' ? a : undefined;
    const other = none && typed(none);
    const schema = other ? { anyOf: [other, { type: 'null' }] } : (a.schema ?? b.schema);
    return this.cel(
      `(${cond.cel} ? ${wrap(a)} : ${wrap(b)})`,
      [cond, a, b],
      schema,
      a.numeric === b.numeric ? a.numeric : undefined,
    );
  }

  protected not(value: CelValue): CelValue {
    if (value.cel === 'true' || value.cel === 'false')
      return this.cel(value.cel === 'true' ? 'false' : 'true', [value]);
    return this.cel(value.opposite ?? negate(value.cel), [value]);
  }

  protected all(values: readonly CelValue[]): CelValue {
    // A condition known to hold adds nothing; one known not to makes the whole false.
    if (values.some((v) => v.cel === 'false')) return this.cel('false', values);
    const open = values.filter((v) => v.cel !== 'true');
    if (open.length === 0 && values.length > 0) return this.cel('true', values);
    if (open.length < values.length) return this.all(open);
    if (values.length === 1 && values[0]) return values[0];
    return this.cel(values.map((v) => `(${v.cel})`).join(' && '), values);
  }

  protected arith(left: CelValue, op: string, right: CelValue): CelValue {
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

  protected cel(
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
  protected fresh(base: string): string {
    const clean = celName(base);
    let name = clean;
    for (let n = 2; this.names.has(name); n++) name = `${clean}${n}`;
    this.names.add(name);
    return name;
  }
}
