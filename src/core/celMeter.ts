import type { Environment } from '@marcbachmann/cel-js';

// A step meter for CEL. cel-js has no limit of its own: `range(100000).all(i, range(100000).all(j,
// i + j >= 0))` is 10^10 steps and froze the page for good. Every child evaluation and every step
// of a comprehension goes through the library's Evaluator `run(ast, ctx)`, and a registered
// function is called with `this` = that Evaluator, so a hidden function captures the evaluator
// once and `run` is wrapped, on that one instance, with a counter. The budget counts steps, not
// milliseconds, so a condition decides the same on every machine and in every place it runs (the
// CLI, the simulation worker, Play, the rule playground).

/** The most evaluation steps one condition may take, and the guard rules of one tool call together. */
export const CEL_STEP_BUDGET = 500_000;

/**
 * The most steps one tool call's preconditions, effects and result may take together: effects
 * walk tables (a `where` per row, a look-up per item), and tau2-bench's retail tools, imported,
 * take up to 2.4 million.
 */
export const TOOL_CALL_STEP_BUDGET = 10_000_000;

/** What a budget covers, in the words of its message. */
export type BudgetScope = 'condition' | 'guards' | 'tool-call' | 'lint';

const SCOPE_WORDS: Record<BudgetScope, string> = {
  condition: 'one condition',
  guards: 'the guard rules of one tool call together',
  'tool-call': 'one tool call’s preconditions, effects and result together',
  lint: 'check’s search for contradicting guard rules',
};

/** Thrown when a condition, or a scope's conditions, used up the step budget. */
export class CelBudgetExceeded extends Error {
  constructor(steps: number, scope: BudgetScope) {
    super(
      `The condition stopped after ${steps.toLocaleString('en-US')} steps, the most ${SCOPE_WORDS[scope]} may take. ` +
        'Nested all/exists/map/filter over long lists, or range() of a large number, multiply the work.',
    );
    this.name = 'CelBudgetExceeded';
  }
}

/** Steps left in the budget now running, its size and what it covers. */
let left = CEL_STEP_BUDGET;
let size = CEL_STEP_BUDGET;
let covers: BudgetScope = 'condition';
/** How many `withCelBudget` scopes are open; 0: each evaluation gets its own budget. */
let scopes = 0;

/** The error for the budget now running. */
export function overBudget(): CelBudgetExceeded {
  return new CelBudgetExceeded(size, covers);
}

/**
 * Runs `work` with one step budget shared by every condition it evaluates: the guards of one
 * tool call (`CEL_STEP_BUDGET`), the preconditions and effects of one call
 * (`TOOL_CALL_STEP_BUDGET`), lint's search. A scope inside another shares the outer one.
 */
export function withCelBudget<T>(work: () => T, scope: BudgetScope, steps: number): T {
  if (scopes > 0) return work();
  scopes++;
  left = size = steps;
  covers = scope;
  try {
    return work();
  } finally {
    scopes--;
  }
}

/** How many evaluations are running (a function called outside one charges nothing). */
let running = 0;

/** Runs one evaluation: in the scope's budget inside one, else with a budget of its own. */
export function meteredRun<T>(evaluate: () => T): T {
  if (scopes === 0 && running === 0) {
    left = size = CEL_STEP_BUDGET;
    covers = 'condition';
  }
  running++;
  try {
    return evaluate();
  } finally {
    running--;
  }
}

/**
 * Charges `steps` to the running budget: what a function does beyond one step (range(n) builds
 * n items, sorted() sorts). Throws `CelBudgetExceeded` past the budget.
 */
export function chargeCel(steps: number): void {
  if (running === 0) return;
  left -= steps;
  if (left < 0) throw overBudget();
}

/** The steps left in the budget now running, for tests and for the pattern matcher's share. */
export function celStepsLeft(): number {
  return Math.max(0, left);
}

const PROBE = '__policylabMeter';

interface EvaluatorLike {
  run(ast: { evaluate(ev: unknown, ast: unknown, ctx: unknown): unknown }, ctx: unknown): unknown;
  tryEval(ast: unknown, ctx: unknown): unknown;
}

/**
 * Installs the meter on the evaluator of `env` (the one environment conditions run in). A
 * quantifier (`all`, `exists`, `||`, `&&`) keeps an error and goes on, as CEL says; the budget's
 * error is let through at once instead, or the loop around it would go on without end.
 */
export function installCelMeter(env: Environment): Environment {
  let captured: EvaluatorLike | undefined;
  env.registerFunction(`${PROBE}(): bool`, function (this: EvaluatorLike) {
    // The one way in to the library's evaluator: it calls a function with itself as `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    captured = this;
    return true;
  });
  env.evaluate(`${PROBE}()`);
  const evaluator = captured;
  if (!evaluator) throw new Error('The CEL meter could not reach the evaluator.');
  evaluator.run = function (ast, ctx) {
    if (--left < 0) throw overBudget();
    return ast.evaluate(this, ast, ctx);
  };
  evaluator.tryEval = function (ast, ctx) {
    try {
      const value = this.run(ast as Parameters<EvaluatorLike['run']>[0], ctx);
      return value instanceof Promise ? value.catch((error: unknown) => error) : value;
    } catch (error) {
      if (error instanceof CelBudgetExceeded) throw error;
      return error;
    }
  };
  return env;
}
