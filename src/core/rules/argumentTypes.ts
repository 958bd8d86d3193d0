import { Environment } from '@marcbachmann/cel-js';
import { checkCel } from '../cel.ts';
import type { CelContext } from '../celVariables.ts';
import { CEL_VARIABLES } from '../celVariables.ts';
import type { JsonSchemaObject } from '../format/model.ts';
import { celTypeOf } from './typedArgs.ts';

/** A condition that uses a tool argument against the type tools.yaml declares for it. */
export interface ArgumentMisuse {
  /** The arguments the faulty part reads, with the types their schema declares. */
  readonly arguments: readonly { readonly name: string; readonly declared: string }[];
  /** What is wrong and how to write it instead, in words. */
  readonly message: string;
  /** Where in the condition the faulty part starts. */
  readonly offset: number;
}

const OTHER_VARIABLES: Readonly<Record<string, string>> = {
  db: 'map',
  history: 'list',
  tool: 'string',
  now: 'google.protobuf.Timestamp',
  row: 'map',
};

const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const COMPARISON = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** The JSON Schema type words people wrote, by the CEL type they become. */
const SCHEMA_WORDS: Readonly<Record<string, string>> = {
  int: 'integer',
  double: 'number',
  string: 'string',
  bool: 'boolean',
};

/**
 * Type-checks a condition with `args` typed from the tool's parameter schema and reports the
 * use of an argument against its declared type that would fail or never hold when it runs:
 * arithmetic or a comparison between a string, a number, a boolean or a timestamp of different
 * kinds (`args.amount + "x"`, `args.code == 5`), or arithmetic mixing an integer argument with a
 * double (CEL has no `int + double`). Comparing an int with a double is allowed, as at run time.
 * A condition that is not valid CEL on its own is left to the CEL check, which says why.
 */
export function argumentMisuse(
  source: string,
  context: CelContext,
  parameters: JsonSchemaObject,
): ArgumentMisuse | undefined {
  if (!(CEL_VARIABLES[context] as readonly string[]).includes('args')) return undefined;
  const declared = declaredTypes(parameters);
  // Type-checking builds an environment per condition: the editor re-checks on every keystroke.
  const key = `${context}\u0000${JSON.stringify(declared)}\u0000${source}`;
  if (results.has(key)) return results.get(key);
  const result = misuseOf(source, context, declared);
  if (results.size > 5000) results.clear();
  results.set(key, result);
  return result;
}

/** Results of `argumentMisuse` by context, declared types and source. */
const results = new Map<string, ArgumentMisuse | undefined>();

function misuseOf(
  source: string,
  context: CelContext,
  declared: Readonly<Record<string, string>>,
): ArgumentMisuse | undefined {
  if (checkCel(source, context) !== undefined) return undefined;
  const read = argumentsRead(source);
  if (!read.some((name) => (declared[name] ?? 'dyn') !== 'dyn')) return undefined;
  let result: { valid: boolean; error?: unknown };
  try {
    result = environmentFor(context, declared, read).check(source);
  } catch {
    return undefined;
  }
  if (result.valid) return undefined;
  const error = result.error as
    { message?: string; node?: { start?: number; end?: number } } | undefined;
  const line = (error?.message ?? '').split('\n')[0] ?? '';
  const clash = /^no such overload: (.+?) (==|!=|<=|>=|<|>|\+|-|\*|\/|%) (.+)$/.exec(line);
  if (!clash) return undefined;
  const [, left = '', operator = '', right = ''] = clash;
  if (!misused(operator, left, right)) return undefined;
  const start = error?.node?.start ?? 0;
  const end = error?.node?.end ?? source.length;
  const typed = (name: string) => (declared[name] ?? 'dyn') !== 'dyn';
  let names = [...new Set(argumentsRead(source.slice(start, end)))].filter(typed);
  // A macro's variable (`args.seats.exists(s, s == "1A")`) reads the argument by another name:
  // name the arguments whose declared type holds one side's.
  if (names.length === 0) {
    const sides = [left, right].map((t) => t.replace(/^dyn<(.*)>$/, '$1'));
    names = [...new Set(read)].filter(
      (name) => typed(name) && sides.some((t) => (declared[name] ?? '').includes(t)),
    );
  }
  if (names.length === 0) return undefined;
  const uses = names.map((name) => ({ name, declared: described(declared[name] ?? 'dyn') }));
  return {
    arguments: uses,
    offset: start,
    message: `${uses.map((u) => `"args.${u.name}" is declared ${u.declared}`).join(' and ')} in tools.yaml, and "${source.slice(start, end)}" uses it as ${left} ${operator} ${right}, which ${hint(operator, left, right)}`,
  };
}

function kindOf(type: string): string {
  const bare = type.replace(/^dyn<(.*)>$/, '$1');
  if (bare === 'int' || bare === 'uint' || bare === 'double') return 'number';
  return bare.replace(/<.*$/, '');
}

/** Whether an operator on these operand types is a real mistake rather than the checker's strictness. */
function misused(operator: string, left: string, right: string): boolean {
  const a = kindOf(left);
  const b = kindOf(right);
  if ([a, b].some((kind) => kind === 'dyn' || kind === 'null' || kind === 'null_type'))
    return false;
  if (a !== b) return ARITHMETIC.has(operator) || COMPARISON.has(operator);
  return a === 'number' && ARITHMETIC.has(operator) && left !== right;
}

function hint(operator: string, left: string, right: string): string {
  if (kindOf(left) === 'number' && kindOf(right) === 'number')
    return 'CEL cannot compute: convert one side, with double(...) or int(...).';
  if (COMPARISON.has(operator))
    return operator === '==' || operator === '!='
      ? 'never holds as meant: compare a value of the same type (quote a string, or convert with int(...), double(...) or string(...)).'
      : 'CEL cannot compare: compare a value of the same type (convert with int(...), double(...), string(...) or timestamp(...)).';
  return 'CEL cannot compute: convert one side to the other’s type first.';
}

function described(celType: string): string {
  const list = /^list<(.+)>$/.exec(celType)?.[1];
  if (list !== undefined) return `a list of ${SCHEMA_WORDS[list] ?? list}`;
  return SCHEMA_WORDS[celType] ?? celType;
}

/** CEL types of the tool's top-level parameters. */
function declaredTypes(parameters: JsonSchemaObject): Record<string, string> {
  return Object.fromEntries(
    Object.entries(parameters.properties ?? {}).map(([name, schema]) => [name, celTypeOf(schema)]),
  );
}

/** The argument names a condition reads as `args.name` or `args["name"]`. */
function argumentsRead(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/\bargs\s*(?:\.\s*(\w+)|\[\s*["'](\w+)["']\s*\])/g)) {
    const name = match[1] ?? match[2];
    if (name !== undefined) names.push(name);
  }
  return names;
}

function environmentFor(
  context: CelContext,
  declared: Readonly<Record<string, string>>,
  read: readonly string[],
): Environment {
  // Arguments the schema does not declare stay dyn, so reading them is no error here.
  const schema: Record<string, string> = Object.fromEntries(read.map((name) => [name, 'dyn']));
  for (const [name, type] of Object.entries(declared)) schema[name] = type;
  let env = new Environment().registerVariable({ name: 'args', schema });
  for (const name of CEL_VARIABLES[context]) {
    if (name !== 'args') env = env.registerVariable(name, OTHER_VARIABLES[name] ?? 'dyn');
  }
  return env;
}
