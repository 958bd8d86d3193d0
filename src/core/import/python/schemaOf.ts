import type { JsonSchema } from '../domain.ts';
import type { PyType } from './annotation.ts';
import { readAnnotation } from './annotation.ts';
import { literalOfText } from './literal.ts';
import type { PyClass, PyModule } from './module.ts';

/** The classes and type aliases of one or more modules, by name, to resolve annotations. */
export interface TypeScope {
  readonly classes: ReadonlyMap<string, PyClass>;
  readonly aliases: ReadonlyMap<string, PyType>;
}

/** The classes and aliases (`Status = Literal[...]`, `Payment = Union[...]`) of modules. */
export function scopeOf(modules: readonly PyModule[]): TypeScope {
  const classes = new Map<string, PyClass>();
  const aliases = new Map<string, PyType>();
  for (const module of modules) {
    for (const c of module.classes) classes.set(c.name, c);
    for (const a of module.assignments) {
      const type = readAnnotation(a.value);
      if (type.kind !== 'unknown') aliases.set(a.name, type);
    }
  }
  return { classes, aliases };
}

const SCALARS: Readonly<Record<string, JsonSchema>> = {
  str: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  None: { type: 'null' },
  NoneType: { type: 'null' },
  datetime: { type: 'string', format: 'date-time' },
  date: { type: 'string', format: 'date' },
  Any: {},
  object: {},
};
const LISTS = new Set(['List', 'list', 'Sequence', 'Set', 'set', 'Tuple', 'tuple', 'FrozenSet']);
const MAPS = new Set(['Dict', 'dict', 'Mapping', 'MutableMapping']);

/**
 * A JSON Schema for a Python annotation: scalars, `List`, `Dict`, `Optional`, `Union`,
 * `Literal`, and pydantic classes of the scope (their fields, descriptions and which are
 * required). `unknown` collects what it could not resolve.
 */
export function schemaOf(
  type: PyType,
  scope: TypeScope,
  unknown: Set<string>,
  seen: readonly string[] = [],
): JsonSchema {
  if (type.kind === 'unknown') {
    unknown.add(type.text);
    return {};
  }
  if (type.kind === 'literal') {
    const strings = type.values.every((v) => typeof v === 'string');
    return strings ? { type: 'string', enum: [...type.values] } : { enum: [...type.values] };
  }
  const { name, args } = type;
  const scalar = SCALARS[name];
  if (scalar !== undefined) return scalar;
  const [a, b] = args;
  if (LISTS.has(name)) return { type: 'array', items: a ? schemaOf(a, scope, unknown, seen) : {} };
  if (MAPS.has(name))
    return { type: 'object', additionalProperties: b ? schemaOf(b, scope, unknown, seen) : {} };
  if (name === 'Optional' && a) return nullable(schemaOf(a, scope, unknown, seen));
  if (name === 'Union') {
    const nonNull = args.filter(
      (t) => !(t.kind === 'name' && (t.name === 'None' || t.name === 'NoneType')),
    );
    const options = nonNull.map((t) => schemaOf(t, scope, unknown, seen));
    const schema = options.length === 1 ? (options[0] ?? {}) : { anyOf: options };
    return nonNull.length < args.length ? nullable(schema) : schema;
  }
  const alias = scope.aliases.get(name);
  if (alias !== undefined && !seen.includes(name))
    return schemaOf(alias, scope, unknown, [...seen, name]);
  const model = scope.classes.get(name);
  if (model !== undefined) {
    const members = enumValues(model);
    if (members !== undefined)
      return members.every((v) => typeof v === 'string')
        ? { type: 'string', enum: members }
        : { enum: members };
    if (seen.includes(name)) return { type: 'object' };
    return objectSchema(model, scope, unknown, [...seen, name]);
  }
  unknown.add(name);
  return {};
}

/**
 * The values of an Enum class's members (`ACTIVE = "active"`), or undefined for a class that is
 * not an Enum or has a member whose value is not a literal.
 */
export function enumValues(model: PyClass): Array<string | number | boolean> | undefined {
  if (!model.bases.some((b) => /(^|\.)(Enum|IntEnum|StrEnum)$/.test(b))) return undefined;
  const values = model.members.map((m) => literalOfText(m.value));
  return values.every(
    (v): v is string | number | boolean =>
      typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
  )
    ? values
    : undefined;
}

/** The fields of a class and its bases in the scope, a subclass's field replacing its base's. */
export function fieldsOf(
  model: PyClass,
  scope: TypeScope,
  seen: readonly string[] = [],
): PyClass['fields'] {
  const byName = new Map<string, PyClass['fields'][number]>();
  for (const base of model.bases) {
    const parent = scope.classes.get(base);
    if (parent && !seen.includes(base))
      for (const f of fieldsOf(parent, scope, [...seen, base])) byName.set(f.name, f);
  }
  for (const f of model.fields) byName.set(f.name, f);
  return [...byName.values()];
}

function objectSchema(
  model: PyClass,
  scope: TypeScope,
  unknown: Set<string>,
  seen: readonly string[],
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fieldsOf(model, scope)) {
    const schema = schemaOf(readAnnotation(field.annotation), scope, unknown, seen);
    properties[field.name] = field.description
      ? { ...schema, description: field.description }
      : schema;
    if (!field.optional) required.push(field.name);
  }
  return {
    type: 'object',
    // The class's name: `isinstance(x, GiftCard)` in a tool body reads it.
    title: model.name,
    ...(model.docstring ? { description: model.docstring } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/** The schema that also allows null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}
