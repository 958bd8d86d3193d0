import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import { withMatchBudget } from '../regex/linear.ts';
import { linearRegExp } from '../regex/schemaPatterns.ts';
import { uniqueItemsProblem } from './uniqueItems.ts';
import type { Column } from './model.ts';

// Structured column values (`type: array` or `type: object`, with an optional `schema:`). The
// schemas come from the user's database.yaml and change as they type, so compiled validators are
// kept per schema object in a WeakMap and Ajv is told to forget each one once compiled.

let ajv: Ajv | undefined;
const validators = new WeakMap<object, ValidateFunction | string>();

/**
 * An Ajv for values a person's data holds (rows, a call's arguments): every error, quiet, and
 * the `date` and `date-time` formats the format's docs name, and `pattern` on the linear matcher.
 */
export function createValueAjv(): Ajv {
  // Patterns run on the linear matcher: a model's argument cannot make one backtrack.
  const instance = new Ajv({
    allErrors: true,
    strict: false,
    logger: false,
    code: { regExp: linearRegExp },
  });
  instance.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  instance.addFormat(
    'date-time',
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/,
  );
  return instance;
}

/** The compiled schema, or why it cannot be compiled. */
function validatorFor(schema: object): ValidateFunction | string {
  const known = validators.get(schema);
  if (known !== undefined) return known;
  ajv ??= createValueAjv();
  let result: ValidateFunction | string;
  try {
    result = ajv.compile(schema);
  } catch (error) {
    // Ajv lists every way a keyword failed ("must be one of ..., must be array, ..."); the first says it.
    const message = error instanceof Error ? error.message : String(error);
    result = (message.split(', ')[0] ?? message).replace('schema is invalid: data/', 'its ');
  }
  ajv.removeSchema(schema);
  validators.set(schema, result);
  return result;
}

/** Why a column's `schema:` is not a JSON Schema Ajv can use; undefined when it is (or has none). */
export function columnSchemaProblem(column: Column): string | undefined {
  if (column.schema === undefined) return undefined;
  const validate = validatorFor(column.schema);
  return typeof validate === 'string'
    ? `The schema of "${column.name}" is not a JSON Schema that can be used: ${validate}.`
    : undefined;
}

function place(column: string, error: ErrorObject): string {
  const steps = error.instancePath
    .slice(1)
    .split('/')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`));
  return `"${column}${steps.join('')}"`;
}

function worded(column: string, error: ErrorObject): string {
  const at = place(column, error);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${at} lacks "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${at} has "${String(params.additionalProperty)}", which its schema does not allow`;
    case 'enum':
      return `${at} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at} ${error.message ?? `breaks "${error.keyword}"`}`;
  }
}

/**
 * What is wrong with a value of an `array` or `object` column: not a list or a mapping, or not
 * fitting the column's `schema:` (at most three reasons, each naming where inside the value).
 * Undefined when it fits; a schema that cannot be compiled is reported apart and holds nothing.
 */
export function structuredValueProblem(column: Column, value: unknown): string | undefined {
  const isList = Array.isArray(value);
  const isMap = typeof value === 'object' && value !== null && !isList;
  if (column.type === 'array' && !isList) {
    return `"${column.name}" must be a list, not ${JSON.stringify(value)}.`;
  }
  if (column.type === 'object' && !isMap) {
    return `"${column.name}" must be a mapping (key: value), not ${JSON.stringify(value)}.`;
  }
  if (column.schema === undefined) return undefined;
  const validate = validatorFor(column.schema);
  if (typeof validate === 'string') return undefined;
  const tooLong = uniqueItemsProblem(column.schema, value);
  if (tooLong !== undefined) return `"${column.name}" cannot be checked: ${tooLong}.`;
  try {
    if (withMatchBudget(() => validate(value))) return undefined;
  } catch (error) {
    // A pattern too costly on the value (regex/linear.ts) throws inside Ajv.
    return `"${column.name}" cannot be checked against its schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  const reasons = [...new Set((validate.errors ?? []).map((e) => worded(column.name, e)))];
  return `"${column.name}" does not fit its schema: ${reasons.slice(0, 3).join('; ')}.`;
}
