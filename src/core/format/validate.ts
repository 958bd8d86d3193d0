import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import type { Diagnostic } from '../diagnostics.ts';
import { closest } from '../text.ts';
import type { YamlFile, YamlPath } from './yamlFile.ts';

let ajv: Ajv | undefined;
const compiled = new Map<object, ValidateFunction>();

/** Compiles a schema once per process; compiling is far slower than validating. */
function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    ajv ??= new Ajv({ allErrors: true, strict: false, verbose: true });
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Checks a parsed YAML file against its JSON Schema and words every failure for a person,
 * positioned at the offending value (or, for an unknown field, at its key).
 */
export function validateAgainstSchema(file: YamlFile, schema: object): Diagnostic[] {
  if (file.value === undefined || file.value === null) return [];
  const validate = validatorFor(schema);
  if (validate(file.value)) return [];
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const error of validate.errors ?? []) {
    const diagnostic = toDiagnostic(file, error);
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      diagnostics.push(diagnostic);
    }
  }
  return diagnostics;
}

function pathOf(instancePath: string): YamlPath {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function labelOf(path: YamlPath): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const part = path[i];
    if (typeof part === 'string') return `"${part}"`;
  }
  return 'This file';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping (key: value lines)',
  array: 'a list (lines starting with "-")',
  null: 'empty',
};

const ID_HINT = 'use lower-case letters, digits, "-" and "_", starting with a letter';
const NAME_HINT = 'use lower-case letters, digits and "_", starting with a letter';

function toDiagnostic(file: YamlFile, error: ErrorObject): Diagnostic {
  const path = pathOf(error.instancePath);
  const label = labelOf(path);
  const params = error.params as Record<string, unknown>;
  const parentSchema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  const fail = (message: string, at: YamlPath = path, keyOnly = false) =>
    keyOnly ? file.atKey(at, 'error', 'schema', message) : file.at(at, 'error', 'schema', message);

  switch (error.keyword) {
    case 'required':
      return fail(
        `Missing ${String(params.missingProperty)}: add "${String(params.missingProperty)}:" here.`,
      );
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const allowed = Object.keys(parentSchema?.properties ?? {});
      const guess = closest(field, allowed);
      const hint = guess
        ? ` Did you mean "${guess}"?`
        : allowed.length > 0
          ? ` Allowed: ${allowed.join(', ')}.`
          : '';
      return fail(`Unknown field "${field}".${hint}`, [...path, field], true);
    }
    case 'type': {
      const types = String(params.type).split(',');
      return fail(`${label} must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}.`);
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const guess = typeof error.data === 'string' ? closest(error.data, allowed) : undefined;
      return fail(
        `${label} must be one of: ${allowed.join(', ')}.${guess ? ` Did you mean "${guess}"?` : ''}`,
      );
    }
    case 'const':
      return fail(`${label} must be ${JSON.stringify(params.allowedValue)}.`);
    case 'minimum':
      return fail(`${label} must be at least ${String(params.limit)}.`);
    case 'maximum':
      return fail(`${label} must be at most ${String(params.limit)}.`);
    case 'minLength':
    case 'minProperties':
      return fail(`${label} must not be empty.`);
    case 'minItems':
      return fail(
        `${label} needs at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}.`,
      );
    case 'maxItems':
      return fail(`${label} takes at most ${String(params.limit)} items.`);
    case 'pattern': {
      const hint = String(params.pattern).includes('-') ? ID_HINT : NAME_HINT;
      return fail(
        `${JSON.stringify(error.data)} is not a valid ${label.replace(/"/g, '')}: ${hint}.`,
      );
    }
    case 'propertyNames': {
      const name = String(params.propertyName);
      return fail(`"${name}" is not a valid name: ${NAME_HINT}.`, [...path, name], true);
    }
    default:
      return fail(`${label} ${error.message ?? 'is not valid'}.`);
  }
}
