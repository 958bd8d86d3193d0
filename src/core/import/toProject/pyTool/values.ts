import type { PyExpr } from '../../python/expression.ts';
import { isNotLiteral, literalOfText } from '../../python/literal.ts';
import { celSelect } from '../../../celVariables.ts';
import type { JsonSchema } from '../../domain.ts';
import type { PyStatement } from '../../python/statements.ts';
import { indexOfTopLevel } from '../../python/statements.ts';
import type { TablePlan } from '../database.ts';
import type { Requirement } from '../requires.ts';
import { balanced } from '../requires.ts';

// The shapes the Python tool reader works with (values, live places, pending changes, frames),
// and the small pure pieces around them: schemas, names, CEL text.

/** The two toolkits an environment holds: the agent's (`self.tools`) and the user's. */
export type Kit = 'agent' | 'user';

/** For an environment's own code: each toolkit's tables and methods (by name, as source). */
export type Kits = Readonly<
  Record<
    Kit,
    { readonly tables: readonly TablePlan[]; readonly helpers: Readonly<Record<string, string>> }
  >
>;

/** Why a body is outside what this reader carries. */
export class Unreadable extends Error {}

export type Numeric = 'int' | 'double';

/** A value as CEL: what it reads (table.column) and when each was read (its epoch). */
export interface CelValue {
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
  /** For a model built from fields (`Task(title=…)`), each field's value. */
  readonly fields?: ReadonlyMap<string, CelValue>;
}

export type Step =
  | { readonly field: string }
  | { readonly key: CelValue }
  | { readonly match: { readonly name: string; readonly cond: CelValue } };

/** A live view of a row or something inside it (Python's reference to a model object). */
export interface Place {
  readonly k: 'place';
  readonly table: TablePlan;
  readonly key: CelValue;
  readonly steps: readonly Step[];
  readonly schema?: JsonSchema;
  /** For `next((x for x in list if …), None)`: CEL that holds when there is such an item. */
  readonly exists?: string;
}

export type Value =
  | CelValue
  | Place
  | { readonly k: 'table'; readonly table: TablePlan }
  /** `self`: the toolkit; in an environment, `kit` says which (`self.tools`, `self.user_tools`). */
  | { readonly k: 'self'; readonly kit?: Kit }
  | { readonly k: 'db'; readonly kit?: Kit }
  | { readonly k: 'class'; readonly name: string }
  | {
      readonly k: 'unset';
      readonly why: string;
      /** Set in the branches of an `if` chain so far: complete once its `else` sets it too. */
      readonly partial?: { readonly cond: CelValue; readonly value: CelValue };
    }
  /** A tuple (`return True, "done"`), kept item by item so that its items may differ in type. */
  | { readonly k: 'tuple'; readonly items: readonly Value[] }
  /** What a path that always fails (`raise`) gives: no value. */
  | { readonly k: 'never' };

/** A change being gathered: consecutive writes to one row become one `update`. */
export interface Group {
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

export interface Loop {
  /** `for_each` list and `as` name. */
  readonly list: string;
  readonly as: string;
  readonly epoch: number;
  effects: number;
  /** Failures checked in the loop, with what they read: dropped if the loop changes that. */
  readonly requires: { requirement: Requirement; reads: ReadonlySet<string> }[];
}

export interface Frame {
  readonly locals: Map<string, Value>;
  /** Conditions of the `if`s around the statement, as CEL. */
  readonly when: readonly CelValue[];
  readonly loop?: Loop;
  readonly dry: boolean;
  /** Set while a `try` body is probed: each way it can fail, as the condition it fails under. */
  readonly probe?: { readonly fails: CelValue[]; wrote: boolean; readonly scan?: true };
  /**
   * The comprehensions (`any(… for x in xs)`) the expression being read sits in, outermost
   * first: a failure inside one happens for some item of its list.
   */
  readonly scopes?: ReadonlyArray<{ readonly list: string; readonly as: string }>;
}

/** What a write tool's body becomes, or why it does not. */
/** An effect of tools.yaml as plain data (`update`, `where`, `set`, …), to write as YAML. */
export type Effect = Record<string, unknown>;

export type ToolProgram =
  | {
      readonly requires: Requirement[];
      readonly effects: Effect[];
      readonly notes: string[];
      /** What the body returns at its end, as CEL; only when asked for (read tools). */
      readonly returns?: string;
      /** The body only answers or fails (`onlyAnswers`): having no effects is what it does. */
      readonly inert: boolean;
    }
  | { readonly reason: string };

export const RESERVED = new Set([
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
export const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const OPPOSITE: Readonly<Record<string, string>> = {
  '==': '!=',
  '!=': '==',
  '<': '>=',
  '>=': '<',
  '>': '<=',
  '<=': '>',
};

// ---- schemas and small pieces ----

export function numericOf(schema: JsonSchema | undefined): { numeric?: Numeric } {
  if (schema?.type === 'integer') return { numeric: 'int' };
  if (schema?.type === 'number') return { numeric: 'double' };
  return {};
}

/**
 * Whether reads (`table.column`, or `table.column[]` for a fixed item of a list column) meet
 * writes (`table.column`, or `table.column+` when the column was only appended to). A whole-row
 * read (`table.*`) meets every write to the table.
 */
export function conflicts(reads: Iterable<string>, writes: ReadonlySet<string>): boolean {
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
export function withReads(
  reads: ReadonlyMap<string, number>,
  more: readonly string[],
  time: number,
): Map<string, number> {
  const out = new Map(reads);
  for (const read of more) out.set(read, Math.min(time, out.get(read) ?? time));
  return out;
}

/** Numbers in rows and lists are JSON numbers, which CEL reads as doubles, integers included. */
export function stored(schema: JsonSchema | undefined): Numeric | undefined {
  return schema?.type === 'number' || schema?.type === 'integer' ? 'double' : undefined;
}

export function isStructured(schema: JsonSchema | undefined): boolean {
  return (
    schema === undefined ||
    schema.type === 'object' ||
    schema.type === 'array' ||
    Array.isArray(schema.anyOf)
  );
}

export function columnSchema(table: TablePlan, name: string): JsonSchema | undefined {
  const spec = table.columns.find((c) => c.name === name)?.spec;
  if (!spec) return undefined;
  return spec.schema ?? { type: spec.type };
}

export function fieldSchema(schema: JsonSchema | undefined, field: string): JsonSchema | undefined {
  if (!schema) return undefined;
  const options = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  for (const option of options) {
    const properties = option.properties as Record<string, JsonSchema> | undefined;
    if (properties?.[field]) return properties[field];
  }
  return undefined;
}

export function itemSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  const items = schema?.items;
  return items && typeof items === 'object' && !Array.isArray(items)
    ? (items as JsonSchema)
    : undefined;
}

export function entrySchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  const entry = schema?.additionalProperties;
  return entry && typeof entry === 'object' ? (entry as JsonSchema) : undefined;
}

/**
 * Per model class (its schema's `title`), the field and value that tell it apart from the other
 * options of a union (`source: "gift_card"` for GiftCard), from every column's schema.
 */
export function discriminators(
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
export function mapLiteral(entries: ReadonlyArray<readonly [string, string]>): string {
  const wrap = (v: string) => (entries.length > 1 ? `dyn(${v})` : v);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${wrap(v)}`).join(', ')}}`;
}

/**
 * A Python variable's name in CEL: the same name, since CEL scopes a macro's variable as Python
 * scopes a comprehension's; a name the format or CEL reserves gets a suffix.
 */
export function celName(name: string): string {
  if (!IDENT.test(name)) return 'x';
  return RESERVED.has(name) ? `${name}_` : name;
}

export function firstField(place: Place): string {
  const first = place.steps[0];
  if (first === undefined || !('field' in first))
    throw new Unreadable('a change outside any column');
  return first.field;
}

export function pathKey(steps: readonly Step[]): string {
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
export function rebuild(
  base: string,
  steps: readonly Step[],
  change: (at: string) => string,
): string {
  const [step, ...rest] = steps;
  if (step === undefined) return change(base);
  if ('field' in step) {
    const at = celSelect(base, step.field);
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
export function oneLine(statement: PyStatement): PyStatement {
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

export function containsReturn(statement: PyStatement): boolean {
  return statement.tokens[0]?.value === 'return' || statement.body.some(containsReturn);
}

/** An expression without the parentheses around the whole of it. */
export function bare(cel: string): string {
  const inner = /^\((.*)\)$/s.exec(cel)?.[1];
  return inner !== undefined && balanced(inner) ? bare(inner) : cel;
}

export function celOfEffect(effect: Effect): string[] {
  const out: string[] = [];
  for (const key of ['for_each', 'when', 'where'] as const) {
    const v = effect[key];
    if (typeof v === 'string') out.push(v);
  }
  for (const key of ['set', 'values'] as const) {
    const columns = effect[key] as Record<string, string> | undefined;
    if (columns) out.push(...Object.values(columns));
  }
  return out;
}

/**
 * Whether a body visibly does nothing but answer or fail: every statement a docstring, `pass`,
 * `return`, `raise`, or an `if`/`elif`/`else` of those. A write tool's body of that kind truly
 * changes nothing; any other body that the reader saw change nothing changed what it could not see.
 */
export function onlyAnswers(statements: readonly PyStatement[]): boolean {
  return statements.map(oneLine).every((statement) => {
    const head = statement.tokens[0];
    if (head === undefined) return true;
    if (['if', 'elif', 'else'].includes(head.value)) return onlyAnswers(statement.body);
    if (head.type === 'string' && statement.tokens.length === 1) return true;
    return ['pass', 'return', 'raise'].includes(head.value) && statement.body.length === 0;
  });
}

/** `self`, `self.tools` or `self.user_tools`: where a method call names a toolkit. */
export function isSelfPath(e: PyExpr): boolean {
  if (e.t === 'name') return e.name === 'self';
  return (
    e.t === 'attr' &&
    e.obj.t === 'name' &&
    e.obj.name === 'self' &&
    (e.name === 'tools' || e.name === 'user_tools')
  );
}

/** A parameter's default written as a literal (`= None`, `= 12`, `= "x"`), as CEL. */
export function literalCel(text: string): string | undefined {
  const value = literalOfText(text);
  return isNotLiteral(value) ? undefined : JSON.stringify(value);
}
