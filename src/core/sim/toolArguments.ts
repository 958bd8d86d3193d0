import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { createValueAjv } from '../format/columnValues.ts';
import type { Tool } from '../format/model.ts';
import { uniqueItemsProblem } from '../format/uniqueItems.ts';
import { withMatchBudget } from '../regex/linear.ts';

/*
 * A tool call's arguments held to the tool's parameter schema, with the reasons in words the
 * agent can act on. Used by the tool runtime before a call runs, and by lint and Assist.
 */

let ajv: Ajv | undefined;
const validators = new WeakMap<object, ValidateFunction | null>();

function validatorFor(tool: Tool): ValidateFunction | null {
  let validate = validators.get(tool.parameters);
  if (validate !== undefined) return validate;
  ajv ??= createValueAjv();
  const schema: object = tool.parameters;
  try {
    validate = ajv.compile(schema);
  } catch {
    // A broken schema is the author's to fix (lint reports it); it cannot hold the agent to account.
    validate = null;
  }
  // Ajv keeps every compiled schema; the WeakMap is the only cache this needs.
  ajv.removeSchema(schema);
  validators.set(tool.parameters, validate);
  return validate;
}

/**
 * Why the arguments break the tool's parameter schema, in words for the agent; at most three.
 * Arguments that cannot be checked in bounded time (a list too long for `uniqueItems`, a pattern
 * too costly on them) are refused, with why.
 */
export function argumentErrors(tool: Tool, args: object): string[] {
  const validate = validatorFor(tool);
  if (validate === null) return [];
  const tooLong = uniqueItemsProblem(tool.parameters, args);
  if (tooLong !== undefined) return [tooLong];
  try {
    // Every pattern of the schema, on every string of the arguments, shares one budget.
    if (withMatchBudget(() => validate(args))) return [];
  } catch (error) {
    // A pattern too costly on the arguments (regex/linear.ts) throws inside Ajv: a refused call.
    return [
      `they could not be checked (${error instanceof Error ? error.message : String(error)})`,
    ];
  }
  const messages = (validate.errors ?? []).map(describeError);
  return [...new Set(messages)].slice(0, 3);
}

function describeError(error: ErrorObject): string {
  const field = error.instancePath.slice(1).replaceAll('/', '.');
  const at = field === '' ? 'the arguments' : `"${field}"`;
  switch (error.keyword) {
    case 'required':
      return `"${[field, String(error.params.missingProperty)].filter(Boolean).join('.')}" is missing`;
    case 'additionalProperties':
      return `"${String(error.params.additionalProperty)}" is not a parameter`;
    case 'enum':
      return `${at} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at} ${error.message ?? `breaks "${error.keyword}"`}`;
  }
}
