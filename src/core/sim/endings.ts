// How a dialogue can end, and how each ending reads (part of the event log's shape, events.ts).

/**
 * Why a dialogue ended. The first three are normal endings, and so is `agent-error`: the agent
 * under test answering badly is its own failure (as tau2-bench counts it). The rest are outside
 * reasons, which make the dialogue an error (never a policy failure); `dialogue-ended` names the
 * role whose call failed.
 */
export type TerminationReason =
  /** The simulated user said it was done (its stop signal). */
  | 'user-done'
  /** A forbidding guard rule with `fallback: end` stopped the dialogue. */
  | 'guard-end'
  /** The turn limit was reached. */
  | 'max-turns'
  /** The dialogue ran past its time limit. */
  | 'time-limit'
  /** A provider failed (after retries): network, rate limit, server, auth, ... */
  | 'provider-error'
  /** The scenario itself cannot be run (its starting rows do not fit the tables): its fault. */
  | 'scenario-error'
  /**
   * The project cannot answer what happened: a tool was called whose behaviour it does not hold
   * (`not_imported`). Its fault, never the agent's, and never a pass.
   */
  | 'project-error'
  /**
   * The agent under test answered badly even after its repair turn (a malformed or unknown tool
   * call): the agent's failure, not an error.
   */
  | 'agent-error'
  /**
   * The simulated user broke the dialogue: an empty message, or leaving before the agent could
   * say anything. An error of the simulation, never charged to the agent.
   */
  | 'user-error'
  /** The person stopped the run. */
  | 'cancelled'
  /** The run's token or money budget was spent. */
  | 'budget';

/** Endings that make a dialogue an error rather than a pass or a failure. */
export const ERROR_ENDINGS: ReadonlySet<TerminationReason> = new Set([
  'time-limit',
  'provider-error',
  'scenario-error',
  'project-error',
  'user-error',
  'cancelled',
  'budget',
]);

/**
 * How each ending reads: `short` in lists and counts ("2 provider error"), `sentence` where a
 * dialogue is shown. Typed by reason, so a new reason cannot reach the screen as a raw code.
 */
export const ENDING_LABELS: Readonly<
  Record<TerminationReason, { readonly short: string; readonly sentence: string }>
> = {
  'user-done': { short: 'the user finished', sentence: 'The customer ended the conversation.' },
  'guard-end': { short: 'a guard rule ended it', sentence: 'A guard rule ended the conversation.' },
  'max-turns': { short: 'turn limit', sentence: 'The turn limit was reached.' },
  'time-limit': { short: 'time limit', sentence: 'The time limit was reached.' },
  'provider-error': { short: 'provider error', sentence: 'The model’s provider failed.' },
  'scenario-error': {
    short: 'scenario cannot run',
    sentence: 'The scenario cannot run as written (a fault of the scenario, not the agent).',
  },
  'project-error': {
    short: 'a tool is not in the project',
    sentence:
      'A tool was called whose behaviour the project does not hold (an error of the project, not the agent).',
  },
  'agent-error': {
    short: 'the agent answered badly',
    sentence: 'The agent under test answered badly twice (its own failure).',
  },
  'user-error': {
    short: 'the simulated user erred',
    sentence: 'The simulated user broke the conversation (an error of the simulation).',
  },
  cancelled: { short: 'stopped', sentence: 'Stopped.' },
  budget: { short: 'budget spent', sentence: 'The budget was spent.' },
};
