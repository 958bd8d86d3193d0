/** How long a dialogue may go on. */
export interface DialogueLimits {
  /** Messages the simulated user may send. */
  readonly maxTurns: number;
  readonly timeLimitMs: number;
  /** Tool-calling answers the agent may give in a row before it must speak. */
  readonly maxToolRounds: number;
}

/**
 * Tool-calling answers the agent (or the simulated user) may give in a row before it must speak,
 * when the caller sets no other. Real tasks never meet it: tau2-bench retail's longest task is
 * 13 calls, all of them counted as if in a row. It stops a model that calls tools in a loop.
 */
export const DEFAULT_MAX_TOOL_ROUNDS = 30;
/** The most a caller may set: past it a looping model costs more than any task needs. */
export const MOST_TOOL_ROUNDS = 200;

/**
 * The limits of a dialogue a plan does not set (apart from dialogue.ts, so the page's worker
 * client can read them without loading the simulation).
 */
export const DEFAULT_LIMITS: DialogueLimits = {
  maxTurns: 12,
  timeLimitMs: 300_000,
  maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
};
