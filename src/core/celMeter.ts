import type { Environment } from '@marcbachmann/cel-js';

// A step meter for CEL. cel-js has no limit of its own: `range(100000).all(i, range(100000).all(j,
// i + j >= 0))` is 10^10 steps and froze the page for good. Every child evaluation and every step
// of a comprehension goes through the library's Evaluator `run(ast, ctx)`, and a registered
// function is called with `this` = that Evaluator, so a hidden function captures the evaluator
// once and `run` is wrapped, on that one instance, with a counter. The budget counts steps, not
// milliseconds, so a condition decides the same on every machine and in every place it runs (the
// CLI, the simulation worker, Play, the rule playground).

/** The most evaluation steps one condition may take, or the conditions of one scope together. */
export const CEL_STEP_BUDGET = 1_000_000;

/** Thrown when a condition, or a scope's conditions, used up the step budget. */
export class CelBudgetExceeded extends Error {
  constructor() {
    super(
      `The condition stopped after ${CEL_STEP_BUDGET.toLocaleString('en-US')} steps, the most one condition (or one tool call’s conditions together) may take. ` +
        'Nested all/exists/map/filter over long lists, or range() of a large number, multiply the work.',
    );
    this.name = 'CelBudgetExceeded';
  }
}

/** Steps left in the budget now running. */
let left = CEL_STEP_BUDGET;
/** How many `withCelBudget` scopes are open; 0: each evaluation gets its own budget. */
let scopes = 0;

/**
 * Runs `work` with one step budget shared by every condition it evaluates (the guards of one
 * tool call, the preconditions and effects of one call): `steps`, `CEL_STEP_BUDGET` unless a
 * search over many evaluations (lint) sets its own. A scope inside another shares the outer one.
 */
export function withCelBudget<T>(work: () => T, steps: number = CEL_STEP_BUDGET): T {
  if (scopes > 0) return work();
  scopes++;
  left = steps;
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
  if (scopes === 0 && running === 0) left = CEL_STEP_BUDGET;
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
  if (left < 0) throw new CelBudgetExceeded();
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
    if (--left < 0) throw new CelBudgetExceeded();
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
