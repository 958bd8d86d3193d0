import type { Environment } from '@marcbachmann/cel-js';
import { celStepsLeft, chargeCel, overBudget } from './celMeter.ts';
import {
  MATCH_STEP_BUDGET,
  PatternTooCostly,
  compilePattern,
  isPatternProblem,
} from './regex/linear.ts';

// CEL's `text.matches(pattern)` on the linear matcher (regex/linear.ts). The CEL library runs
// `new RegExp(pattern).test(text)`, which backtracks: `args.name.matches('(a+)+$')` with a model's
// argument of thirty a's and a "!" froze the page. The library will not let a second `matches`
// be registered, so a parsed expression's `matches` calls are pointed at `__matches`, the same
// function on the linear matcher, before it first runs. Patterns are read in Unicode mode, as RE2
// (CEL's own engine) reads them: by code point, case-sensitive.

/** The name CEL's `matches` runs under once `useLinearMatches` has rewritten an expression. */
export const LINEAR_MATCHES = '__matches';

/** How many of the matcher's steps cost one CEL step: about what each takes in time. */
const MATCHER_STEPS_PER_CEL_STEP = 4;

/** Registers `string.__matches(string): bool` on a CEL environment. */
export function registerLinearMatches(env: Environment): Environment {
  return env.registerFunction(
    `string.${LINEAR_MATCHES}(string): bool`,
    (text: string, pattern: string) => {
      const compiled = compilePattern(pattern, 'u');
      if (isPatternProblem(compiled)) throw new Error(`matches(): ${compiled.message}`);
      // The matcher's steps count against the condition's budget too (MATCHER_STEPS_PER_CEL_STEP
      // to one), so matching inside a loop over a long list is bounded as the loop is.
      const budget = Math.min(MATCH_STEP_BUDGET, celStepsLeft() * MATCHER_STEPS_PER_CEL_STEP);
      let result: { matched: boolean; steps: number };
      try {
        result = compiled.counted(text, budget);
      } catch (error) {
        // Cut short by what the condition had left, not by the matcher's own limit.
        if (error instanceof PatternTooCostly && budget < MATCH_STEP_BUDGET) throw overBudget();
        throw error;
      }
      chargeCel(Math.ceil(result.steps / MATCHER_STEPS_PER_CEL_STEP));
      return result.matched;
    },
  );
}

interface AstNode {
  readonly op: string;
  readonly args: unknown;
  readonly start?: number;
}

const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { op?: unknown }).op === 'string' &&
  'args' in value;

/** Every `x.matches(…)` call in a parsed expression, in source order. */
function matchesCalls(ast: unknown): AstNode[] {
  const calls: AstNode[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!isNode(value) || value.op === 'value') return;
    if (value.op === 'rcall' && Array.isArray(value.args) && value.args[0] === 'matches')
      calls.push(value);
    visit(value.args);
  };
  visit(ast);
  return calls;
}

/** Points every `matches` call of a parsed (not yet run) expression at the linear matcher. */
export function useLinearMatches(ast: unknown): void {
  for (const call of matchesCalls(ast)) (call.args as unknown[])[0] = LINEAR_MATCHES;
}

/** Says `matches` again where an evaluation error names the function it runs under. */
export function withMatchesName(message: string): string {
  return message.replaceAll(LINEAR_MATCHES, 'matches');
}

/**
 * The first `matches` call whose pattern is written in the expression and cannot run on the
 * linear matcher (a backreference, a lookaround, a syntax error): its message and the offset of
 * the pattern.
 */
export function matchesProblem(ast: unknown): { message: string; offset: number } | undefined {
  for (const call of matchesCalls(ast)) {
    const [, , fnArgs] = call.args as [string, unknown, unknown[]];
    const literal = fnArgs[0];
    if (!isNode(literal) || literal.op !== 'value' || typeof literal.args !== 'string') continue;
    const compiled = compilePattern(literal.args, 'u');
    if (isPatternProblem(compiled))
      return {
        message: `The pattern of matches() ${compiled.construct === undefined ? `is not a valid regular expression: ${compiled.message}` : `cannot be used: ${compiled.message}`}`,
        offset: literal.start ?? 0,
      };
  }
  return undefined;
}
