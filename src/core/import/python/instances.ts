import type { JsonValue } from '../domain.ts';
import type { PyType } from './annotation.ts';
import { readAnnotation } from './annotation.ts';
import type { PyExpr } from './expression.ts';
import { PyExprError, parsePyExpr } from './expression.ts';
import type { PyClass, PyField } from './module.ts';
import { callOf } from './module.ts';
import type { TypeScope } from './schemaOf.ts';
import { enumValues, fieldsOf } from './schemaOf.ts';
import type { PyToken } from './tokenize.ts';
import { tokenizePython } from './tokenize.ts';

/*
 * What pydantic makes of data for a model, without pydantic and without running the model's
 * code: the fields given are read by their types (nested models in turn), every field left out
 * takes its default (`Field(False)`, `Field(default=…)`, `= Enum.MEMBER`, `default_factory=Model`
 * or a `lambda:` returning literals, enum members and models built from fields). tau2-bench's
 * user state (`user_db.toml` read through `user_data_model.py`) is such data: the phone's fields
 * the file leaves out are the model's defaults.
 */

/** A value, or why it could not be made (a field with no default, a default that runs code). */
export type Made = { readonly value: JsonValue } | { readonly why: string };

type Obj = Readonly<Record<string, JsonValue>>;
const isObj = (v: JsonValue | undefined): v is Obj =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

const LISTS = new Set(['List', 'list', 'Sequence', 'Set', 'set', 'Tuple', 'tuple', 'FrozenSet']);
const MAPS = new Set(['Dict', 'dict', 'Mapping', 'MutableMapping']);
const NONE = new Set(['None', 'NoneType']);

/** `given` (undefined when the data leaves it out entirely) read as pydantic reads it for `type`. */
export function instanceOf(given: JsonValue | undefined, type: PyType, scope: TypeScope): Made {
  if (type.kind !== 'name') return given === undefined ? { why: 'no value' } : { value: given };
  const alias = scope.aliases.get(type.name);
  if (alias !== undefined && alias !== type) return instanceOf(given, alias, scope);
  const model = scope.classes.get(type.name);
  if (model !== undefined && enumValues(model) === undefined) {
    if (given !== undefined && !isObj(given)) return { value: given };
    return modelInstance(model, given ?? {}, scope);
  }
  if (given === undefined) return { why: 'no value' };
  if (given === null) return { value: null };
  const [a, b] = type.args;
  if (LISTS.has(type.name) && Array.isArray(given)) {
    const list = given as readonly JsonValue[];
    const items = list.map((item): Made => (a ? instanceOf(item, a, scope) : { value: item }));
    const bad = items.find((i) => 'why' in i);
    return bad ?? { value: items.map((i) => ('value' in i ? i.value : null)) };
  }
  if (MAPS.has(type.name) && isObj(given)) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(given)) {
      const made = b ? instanceOf(item, b, scope) : { value: item };
      if ('why' in made) return made;
      out[key] = made.value;
    }
    return { value: out };
  }
  if (type.name === 'Optional' || type.name === 'Union') {
    const arms = type.args.filter((t) => !(t.kind === 'name' && NONE.has(t.name)));
    // A mapping takes the first model arm that reads it; anything else is kept as it is.
    for (const arm of arms) {
      const armModel = arm.kind === 'name' ? scope.classes.get(arm.name) : undefined;
      if (isObj(given) && armModel === undefined) continue;
      const made = instanceOf(given, arm, scope);
      if ('value' in made) return made;
    }
    return { value: given };
  }
  return { value: given };
}

/** A model's instance from a mapping: given fields read by type, the rest their defaults. */
function modelInstance(model: PyClass, given: Obj, scope: TypeScope): Made {
  const out: Record<string, JsonValue> = {};
  for (const field of fieldsOf(model, scope)) {
    const type = readAnnotation(field.annotation);
    const made = Object.hasOwn(given, field.name)
      ? instanceOf(given[field.name], type, scope)
      : defaultOf(field, type, scope);
    if ('why' in made) return { why: `${model.name}.${field.name}: ${made.why}` };
    out[field.name] = made.value;
  }
  // Data the model does not declare stays as given (pydantic's default keeps or drops it; tau2's
  // models forbid it, so well-formed data has none).
  for (const [key, value] of Object.entries(given)) if (!Object.hasOwn(out, key)) out[key] = value;
  return { value: out };
}

/** A field's default: `Field(x)`, `Field(default=x)`, `Field(default_factory=f)` or `= x`. */
function defaultOf(field: PyField, type: PyType, scope: TypeScope): Made {
  if (field.default === undefined) return { why: 'required, and not given' };
  const read = tokenizePython(field.default);
  if (read.problems.length > 0) return { why: `its default "${field.default}" could not be read` };
  const tokens = read.tokens.filter(
    (t) => !['newline', 'indent', 'dedent', 'eof'].includes(t.type),
  );
  const call = callOf(tokens);
  const callee = call?.callee.map((t) => t.value).join('');
  if (call !== undefined && /^(pydantic\.)?Field$/.test(callee ?? '')) {
    const plain = call.keywords.get('default') ?? call.positional[0];
    if (plain !== undefined) {
      if (plain.map((t) => t.value).join('') === '...') return { why: 'required, and not given' };
      return valueOf(plain, type, scope);
    }
    const factory = call.keywords.get('default_factory');
    if (factory === undefined) return { why: 'required, and not given' };
    if (factory[0]?.value === 'lambda' && factory[1]?.value === ':')
      return valueOf(factory.slice(2), type, scope);
    const name = factory.map((t) => t.value).join('');
    if (name === 'dict') return { value: {} };
    if (name === 'list' || name === 'set') return { value: [] };
    const made = scope.classes.get(name);
    if (made) return modelInstance(made, {}, scope);
    return { why: `its default is made by ${name}()` };
  }
  return valueOf(tokens, type, scope);
}

/** A default written as an expression of literals, enum members and models built from fields. */
function valueOf(tokens: readonly PyToken[], type: PyType, scope: TypeScope): Made {
  let expr: PyExpr;
  try {
    expr = parsePyExpr(tokens);
  } catch (error) {
    if (error instanceof PyExprError) return { why: `its default uses ${error.message}` };
    throw error;
  }
  try {
    return instanceOf(evaluate(expr, scope), type, scope);
  } catch (error) {
    if (error instanceof Unmade) return { why: `its default ${error.message}` };
    throw error;
  }
}

class Unmade extends Error {}

function evaluate(e: PyExpr, scope: TypeScope): JsonValue {
  switch (e.t) {
    case 'const':
      return e.value === 'None' ? null : e.value === 'True';
    case 'num': {
      const n = Number(e.text.replace(/_/g, ''));
      if (!Number.isFinite(n)) throw new Unmade(`has the number ${e.text}`);
      return n;
    }
    case 'str':
      if (e.fstring) throw new Unmade('is an f-string');
      return e.value;
    case 'neg': {
      const x = evaluate(e.x, scope);
      if (typeof x !== 'number') throw new Unmade('negates something not a number');
      return -x;
    }
    case 'list':
    case 'tuple':
    case 'set':
      return e.items.map((i) => evaluate(i, scope));
    case 'dict': {
      const out: Record<string, JsonValue> = {};
      for (const [k, v] of e.entries) {
        const key = evaluate(k, scope);
        if (typeof key !== 'string' && typeof key !== 'number')
          throw new Unmade('has a key that is not text or a number');
        out[String(key)] = evaluate(v, scope);
      }
      return out;
    }
    case 'attr': {
      // An enum member: `NetworkTechnology.FOUR_G`.
      const owner = e.obj.t === 'name' ? scope.classes.get(e.obj.name) : undefined;
      const values = owner ? enumValues(owner) : undefined;
      const index = owner?.members.findIndex((m) => m.name === e.name) ?? -1;
      const value = values?.[index];
      if (value === undefined) throw new Unmade(`reads ${e.name}, not an enum member it knows`);
      return value;
    }
    case 'call': {
      const model = e.fn.t === 'name' ? scope.classes.get(e.fn.name) : undefined;
      if (model === undefined || e.args.length > 0)
        throw new Unmade('calls something other than a model built from fields');
      const given: Record<string, JsonValue> = {};
      for (const [k, v] of e.kwargs) given[k] = evaluate(v, scope);
      const made = modelInstance(model, given, scope);
      if ('why' in made) throw new Unmade(made.why);
      return made.value;
    }
    default:
      throw new Unmade(`is an expression (${e.t}) that only running it would answer`);
  }
}

/**
 * Each model class's fields that have a default, with that default as pydantic fills it in
 * (`Notification(...)` left without `status` has `status: "unread"`). A default made by code
 * is left out.
 */
export function modelDefaults(scope: TypeScope): Record<string, Record<string, JsonValue>> {
  const out: Record<string, Record<string, JsonValue>> = {};
  for (const [name, model] of scope.classes) {
    if (enumValues(model) !== undefined) continue;
    const defaults: Record<string, JsonValue> = {};
    for (const field of fieldsOf(model, scope)) {
      if (field.default === undefined) continue;
      const made = defaultOf(field, readAnnotation(field.annotation), scope);
      if ('value' in made) defaults[field.name] = made.value;
    }
    if (Object.keys(defaults).length > 0) out[name] = defaults;
  }
  return out;
}
