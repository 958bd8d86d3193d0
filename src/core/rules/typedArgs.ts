import type { JsonSchemaObject } from '../format/model.ts';

// CEL tells int from double, and @marcbachmann/cel-js holds a CEL int as a BigInt. Arguments
// arrive as JSON, where every number is a JS number (a CEL double), so `args.amount % 50` would
// fail on an argument tools.yaml declares `integer`. These functions give conditions each
// argument in the type its schema declares.

type Obj = Readonly<Record<string, unknown>>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a JSON Schema node declares `type` (alone, or among a list of types). */
function declares(schema: Obj, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

/**
 * A value as CEL should see it under its JSON Schema: whole numbers where the schema declares
 * `integer` become BigInt (CEL `int`), inside lists (`items`) and objects (`properties`,
 * `additionalProperties`) too; everything else is returned as it is, so a value that breaks its
 * schema is left for the schema check to name.
 */
export function typedValue(schema: unknown, value: unknown): unknown {
  if (!isObj(schema)) return value;
  if (typeof value === 'number') {
    return Number.isInteger(value) && declares(schema, 'integer') ? BigInt(value) : value;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    return isObj(items) ? value.map((item: unknown) => typedValue(items, item)) : value;
  }
  if (isObj(value)) {
    const properties = isObj(schema.properties) ? schema.properties : {};
    const rest = schema.additionalProperties;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        typedValue(Object.hasOwn(properties, key) ? properties[key] : rest, item),
      ]),
    );
  }
  return value;
}

/**
 * A tool call's arguments as guards, preconditions and effects see them in `args`: typed by
 * the tool's parameter schema (`typedValue`). Arguments the schema does not declare are kept
 * as they came.
 */
export function typedArgs(
  parameters: JsonSchemaObject,
  args: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return typedValue(parameters, args) as Readonly<Record<string, unknown>>;
}

/** A CEL type name for a JSON Schema node: `int`, `double`, `string`, `bool`, a list or `dyn`. */
export function celTypeOf(schema: unknown): string {
  if (!isObj(schema) || typeof schema.type !== 'string') return 'dyn';
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'array': {
      const item = celTypeOf(schema.items);
      return item === 'dyn' ? 'list' : `list<${item}>`;
    }
    case 'object':
      return 'map';
    default:
      return 'dyn';
  }
}
