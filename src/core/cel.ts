import { useKeyedLookups } from './celKeyed.ts';
import { Environment, ParseError } from '@marcbachmann/cel-js';
import { registerListFunctions } from './celFunctions.ts';
import {
  matchesProblem,
  registerLinearMatches,
  useLinearMatches,
  withMatchesName,
} from './celMatches.ts';
import { installCelMeter, meteredRun } from './celMeter.ts';
import { CEL_VARIABLES } from './celVariables.ts';
import type { CelContext } from './celVariables.ts';
import { closest } from './text.ts';

export { CEL_VARIABLES } from './celVariables.ts';
export type { CelContext } from './celVariables.ts';

/** A CEL condition compiled once and run many times. */
export interface CompiledExpression {
  readonly source: string;
  /** Evaluates against the given variables; throws `CelRunError` when evaluation fails. */
  run(variables: Readonly<Record<string, unknown>>): unknown;
}

/** Why a CEL expression could not be compiled: a message and the offset in its source. */
export interface CelProblem {
  readonly message: string;
  readonly offset: number;
}

/** An evaluation failure; `missing` names the key that was absent, when that was the cause. */
export class CelRunError extends Error {
  readonly missing: string | undefined;
  constructor(message: string, missing: string | undefined) {
    super(message);
    this.name = 'CelRunError';
    this.missing = missing;
  }
}

const cache = new Map<string, CompiledExpression | CelProblem>();

/**
 * What expressions run in: any variable may be read, PolicyLab's list functions are known, and
 * every evaluation runs under the step budget of celMeter.ts.
 */
const runtime = installCelMeter(
  registerLinearMatches(registerListFunctions(new Environment({ unlistedVariablesAreDyn: true }))),
);

/** Compiles a CEL expression; results are cached by source text. */
export function compileCel(source: string): CompiledExpression | CelProblem {
  const cached = cache.get(source);
  if (cached) return cached;
  let result: CompiledExpression | CelProblem;
  try {
    const evaluate = runtime.parse(source);
    useLinearMatches(evaluate.ast);
    useKeyedLookups(evaluate.ast);
    result = {
      source,
      run(variables) {
        try {
          const value: unknown = meteredRun((): unknown => evaluate(variables));
          return value;
        } catch (error) {
          const message = withMatchesName(firstLine(error));
          const missing = /^No such key: (.+)$/.exec(message)?.[1];
          throw new CelRunError(message, missing);
        }
      },
    };
  } catch (error) {
    const offset = error instanceof ParseError ? positionOf(error) : 0;
    result = { message: firstLine(error), offset };
  }
  if (cache.size > 5000) cache.clear();
  cache.set(source, result);
  return result;
}

/** Tells a compiled expression from a problem. */
export function isCelProblem(value: CompiledExpression | CelProblem): value is CelProblem {
  return 'offset' in value;
}

function positionOf(error: ParseError): number {
  const node = (error as unknown as { node?: { pos?: unknown } }).node;
  return typeof node?.pos === 'number' ? node.pos : 0;
}

const TOKEN_WORDS: Record<string, string> = {
  EOF: 'end of the condition: something is missing at the end',
  RPAREN: '")"',
  LPAREN: '"("',
  RBRACKET: '"]"',
  LBRACKET: '"["',
  RBRACE: '"}"',
  LBRACE: '"{"',
  COMMA: '","',
  DOT: '"."',
  GT: '">"',
  LT: '"<"',
  EQ: '"=="',
  MULTIPLY: '"*"',
  PLUS: '"+"',
  MINUS: '"-"',
  COLON: '":"',
  QUESTION: '"?"',
};

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = (message.split('\n')[0] ?? message).trim();
  const token = /^Unexpected token: (\w+)$/.exec(line)?.[1];
  if (token !== undefined) return `Unexpected ${TOKEN_WORDS[token] ?? token.toLowerCase()}.`;
  const expected = /^Expected (\w+), got (\w+)$/.exec(line);
  if (expected) {
    const [, want = '', got = ''] = expected;
    return `Expected ${TOKEN_WORDS[want] ?? want.toLowerCase()} but found ${TOKEN_WORDS[got] ?? got.toLowerCase()}.`;
  }
  if (line === 'Unexpected character: =') return 'Unexpected "=": to compare, write "==".';
  return line;
}

const VARIABLE_TYPES: Record<string, string> = {
  args: 'map',
  db: 'map',
  history: 'list',
  tool: 'string',
  now: 'google.protobuf.Timestamp',
  row: 'map',
  inserted: 'map',
};

const environments = new Map<string, Environment>();

function environmentFor(context: CelContext, extra: readonly string[]): Environment {
  const id = [context, ...extra].join('\u0000');
  let env = environments.get(id);
  if (!env) {
    env = registerListFunctions(new Environment());
    for (const name of [...CEL_VARIABLES[context], ...extra]) {
      if (!env.hasVariable(name)) env = env.registerVariable(name, VARIABLE_TYPES[name] ?? 'dyn');
    }
    if (environments.size > 200) environments.clear();
    environments.set(id, env);
  }
  return env;
}

/**
 * Compiles and type-checks a condition for the place it is written: a syntax error, an unknown
 * variable (with a suggestion) or an impossible comparison is returned as a problem. `extra`
 * names variables the place adds (an effect's `for_each` item), read as any type.
 */
export function checkCel(
  source: string,
  context: CelContext,
  extra: readonly string[] = [],
): CelProblem | undefined {
  const key = `${[context, ...extra].join('\u0000')}\u0000\u0000${source}`;
  if (checked.has(key)) return checked.get(key);
  const problem = checkUncached(source, context, extra);
  if (checked.size > 5000) checked.clear();
  checked.set(key, problem);
  return problem;
}

/** Results of `checkCel` by context and source: type-checking costs more than parsing. */
const checked = new Map<string, CelProblem | undefined>();

function checkUncached(
  source: string,
  context: CelContext,
  extra: readonly string[],
): CelProblem | undefined {
  const compiled = compileCel(source);
  if (isCelProblem(compiled)) return compiled;
  let result: { valid: boolean; error?: unknown };
  try {
    result = environmentFor(context, extra).check(source);
  } catch (error) {
    return { message: firstLine(error), offset: 0 };
  }
  if (result.valid) return patternProblem(source);
  const message = firstLine(result.error);
  const unknown = /^Unknown variable: (\w+)/.exec(message)?.[1];
  if (unknown !== undefined) {
    const allowed = [...CEL_VARIABLES[context], ...extra];
    const guess = closest(unknown, allowed);
    const offset = Math.max(0, source.search(new RegExp(`\\b${unknown}\\b`)));
    return {
      message: `Unknown variable "${unknown}".${guess ? ` Did you mean "${guess}"?` : ''} Here you can use: ${allowed.join(', ')}.`,
      offset,
    };
  }
  return { message, offset: positionOfUnknown(result.error) };
}

/** A `matches` pattern written in the condition that the linear matcher cannot run. */
function patternProblem(source: string): CelProblem | undefined {
  try {
    return matchesProblem(runtime.parse(source).ast);
  } catch {
    return undefined;
  }
}

function positionOfUnknown(error: unknown): number {
  const node = (error as { node?: { pos?: unknown } } | undefined)?.node;
  return typeof node?.pos === 'number' ? node.pos : 0;
}
