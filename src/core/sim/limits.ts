/** How long a dialogue may go on. */
export interface DialogueLimits {
  /** Messages the simulated user may send. */
  readonly maxTurns: number;
  readonly timeLimitMs: number;
  /** Tool-calling answers the agent may give in a row before it must speak. */
  readonly maxToolRounds: number;
}

/**
 * The limits of a dialogue a plan does not set (apart from dialogue.ts, so the page's worker
 * client can read them without loading the simulation).
 */
export const DEFAULT_LIMITS: DialogueLimits = {
  maxTurns: 12,
  timeLimitMs: 300_000,
  maxToolRounds: 8,
};
