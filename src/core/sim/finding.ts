/*
 * A finding: what one deterministic check, expectation or refused attempt concluded about a
 * dialogue, and the one reading of it (`findingState`) every verdict, list and export uses.
 */

/** What one deterministic check or expectation concluded. */
export interface Finding {
  /** The check's id (rules.yaml) or the expectation it came from (`expected.database[0]`, ...). */
  readonly id: string;
  /** The policy it holds the agent to; undefined for scenario expectations not tied to one. */
  readonly policy: string | undefined;
  readonly passed: boolean;
  /** The turn (index into the dialogue's messages) where it failed, when there is one. */
  readonly turn?: number;
  /** Why, in words a person understands. */
  readonly detail: string;
  /**
   * The finding could not be judged because the scenario is at fault (an expectation that cannot
   * be evaluated): the dialogue is then a scenario error, never the agent's failure.
   */
  readonly fault?: 'scenario';
  /** Not settled by reading alone (a reply neither yes nor no); a person or the judge decides. */
  readonly unclear?: true;
  /**
   * Failed, but of an expectation the scenario is not graded by (`graded_by:`): shown, never
   * the dialogue's failure.
   */
  readonly ungraded?: true;
  /** A refused attempt: a guard rule or a tool's precondition stopped what the policy forbids. */
  readonly attempt?: true;
  /** A refused attempt its rule says is only noted (`attempt: noted`): never the failure. */
  readonly noted?: true;
}

/**
 * How a finding stands: held, broken (the dialogue fails), unclear, not graded, a refused
 * attempt only noted, or the scenario's fault.
 */
export type FindingState = 'held' | 'broken' | 'unclear' | 'ungraded' | 'noted' | 'scenario';

/** The one reading of a finding every verdict, list and export uses. */
export function findingState(f: Finding): FindingState {
  if (f.fault === 'scenario') return 'scenario';
  if (f.unclear) return 'unclear';
  if (f.passed) return 'held';
  if (f.noted) return 'noted';
  return f.ungraded ? 'ungraded' : 'broken';
}
