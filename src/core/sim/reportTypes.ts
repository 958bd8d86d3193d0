import type { ModelRole } from '../models/chat.ts';
import type { UsageLedger } from '../models/usage.ts';
import type { AssertionOpinion } from './assertionOpinions.ts';
import type { AttackReport } from './attackReport.ts';
import type { TerminationReason } from './events.ts';
import type { GenerationReport } from './generationReport.ts';
import type { PassRate } from './metrics.ts';

/*
 * What a run's report says, as `reportOf` (report.ts) folds it from the event log.
 */

/** What the report needs to know of each policy in the project. */
export type PolicyFacts = ReadonlyMap<
  string,
  { readonly category: string; readonly challenge: number }
>;

/**
 * A dialogue's outcome from the deterministic judging only: an outside ending is an `error`
 * (never a failure); `suspect` while the simulated user probably erred and no person has
 * reviewed it (kept out of the pass rate); `running` until its `dialogue-ended` arrives.
 */
export type Verdict = 'pass' | 'fail' | 'error' | 'suspect' | 'running';

/**
 * One reason a dialogue failed: a failed check or expectation, a guard refusal, the agent's own
 * broken output (its ending), or, in a scenario graded by its assertions (`graded_by`), the
 * judge's opinion that one was not met (the only breach that is a model's opinion).
 */
export interface Breach {
  readonly source: 'check' | 'guard' | 'precondition' | 'ending' | 'assertion' | 'judge';
  /**
   * The finding's id, the id of the guard rule that refused the call, or the refusing
   * precondition's place (`cancel_order.requires[1]`).
   */
  readonly id: string;
  /**
   * A refused attempt: the agent tried what the policy forbids and a guard rule or a tool's
   * precondition stopped it, as against a breach that went through.
   */
  readonly attempt?: true;
  /** The policy broken; undefined when nothing ties the failure to a policy (unattributed). */
  readonly policy: string | undefined;
  /** The message index where it happened, when known (the raw index the log keeps). */
  readonly turn: number | undefined;
  /** That turn as a reader counts it: "the agent’s 3rd reply". */
  readonly turnLabel?: string;
  readonly detail: string;
}

/** A finding that could not be read either way (an unclear agreement): neither pass nor breach. */
export interface UnclearFinding {
  readonly id: string;
  readonly policy: string | undefined;
  readonly turn: number | undefined;
  readonly detail: string;
}

/** A judge model's opinion that a policy was violated: labelled as opinion, never a verdict. */
export interface JudgeViolation {
  readonly policy: string;
  readonly turn: number | undefined;
  /** That turn as a reader counts it. */
  readonly turnLabel?: string;
  readonly reason: string;
  readonly evidence: string;
}

/** One trial of one scenario. */
export interface DialogueReport {
  readonly dialogue: string;
  readonly scenario: string;
  readonly trial: number;
  /** Why it ended; null while it runs. */
  readonly ending: TerminationReason | null;
  readonly endingDetail: string;
  readonly verdict: Verdict;
  /** Whether its `checks` arrived; a `pass` without them may still turn into a `fail`. */
  readonly checked: boolean;
  /** Sorted by turn, then id. Kept for errors too, though they never make an error a failure. */
  readonly breaches: readonly Breach[];
  /**
   * Refused attempts whose rule or precondition says `attempt: noted`: shown and counted in the
   * policy's row, never the dialogue's failure. Sorted as `breaches`.
   */
  readonly noted: readonly Breach[];
  /**
   * The policies something deterministic examined here: a check or expectation that judged it
   * (not one skipped or unclear), or a guard rule of it that decided a call. Only these count
   * towards a policy's rate; a policy in play that nothing examined was not checked here.
   */
  readonly examined: readonly string[];
  /** Findings that could not be read either way, for a person (or the judge) to decide. */
  readonly unclear: readonly UnclearFinding[];
  /** Expectations that did not hold but that the scenario is not graded by (`graded_by`). */
  readonly ungraded: readonly UnclearFinding[];
  /** Whose model call ended it, for an ending one caused (a provider error, broken output). */
  readonly endingRole: ModelRole | null;
  /** Why it counts as an error, when it does: its ending, or its scenario's fault. */
  readonly errorReason: TerminationReason | null;
  /** What the scenario got wrong, from findings it could not judge because of it. */
  readonly scenarioFaults: readonly string[];
  /** Why the simulated user probably erred here; empty when nothing points to it. */
  readonly suspect: readonly string[];
  /** A person's review of a suspect dialogue, if one was made. */
  readonly review: 'counts' | 'discarded' | null;
  readonly judgeViolations: readonly JudgeViolation[];
  /**
   * The policies whose verdict the judge's opinion decided here (the run let it decide them, and
   * it judged them): in play here, wherever the judge found them in play.
   */
  readonly decided: readonly string[];
  /** The policies the judge model was asked about here but could not judge, and why. */
  readonly judgeFailed: readonly { readonly policy: string; readonly error: string }[];
  /**
   * The scenario's natural-language assertions with the judge's opinion of each, or not judged
   * (with why): opinions, part of the verdict only where the scenario is graded by them.
   */
  readonly assertions: readonly (AssertionOpinion & {
    readonly turnLabel?: string;
    /** The scenario is graded by its assertions (`graded_by`): this opinion decides. */
    readonly graded?: true;
  })[];
}

/** A breach as the per-policy view lists it: where and when the agent broke the policy. */
export interface PolicyBreach extends Breach {
  readonly dialogue: string;
  readonly scenario: string;
  readonly trial: number;
  /** Whether the scenario was testing this policy. */
  readonly inPlay: boolean;
}

/**
 * A policy's pass rate over the finished dialogues that had it in play and examined it, and
 * every breach.
 */
export interface PolicyReport extends PassRate {
  readonly policy: string;
  /** Finished dialogues that had it in play where nothing examined it: neither pass nor fail. */
  readonly notChecked: number;
  /** From the project; null for a policy id the project no longer has. */
  readonly category: string | null;
  /** Breaches in failed dialogues, in play or not, by scenario, trial and turn. */
  readonly breaches: readonly PolicyBreach[];
  /** Failed dialogues that broke it without having it in play. */
  readonly outOfPlay: number;
  /**
   * Refused attempts at what it forbids in finished dialogues: those that failed their dialogue
   * (among `breaches`) and those only noted (`noted`).
   */
  readonly attempts: number;
  /** The noted attempts, listed as `breaches` are. */
  readonly noted: readonly PolicyBreach[];
}

/** Pass rate of the scenarios at one challenge level (null: unknown policies, no level). */
export interface LevelReport extends PassRate {
  readonly level: number | null;
}

/**
 * Pass rate of a category over finished dialogues that examined one of its policies in play; a
 * dialogue fails the category when it broke any policy of that category.
 */
export interface CategoryReport extends PassRate {
  readonly category: string;
}

/** One scenario and how its trials went. */
export interface ScenarioSummary {
  readonly id: string;
  /** Null when dialogues name a scenario the log never announced. */
  readonly source: 'hand-written' | 'generated' | null;
  readonly level: number | null;
  readonly policies: readonly string[];
  readonly passes: number;
  readonly fails: number;
  readonly errors: number;
  /** Kept out of its pass rate until reviewed: the simulated user probably erred. */
  readonly suspect: number;
  readonly running: number;
  /** Why it passes even when the agent does nothing (so its passes prove little); null if not. */
  readonly passesIdle: string | null;
}

/** pass^k for one k, over the `scenarios` that had at least k finished trials. */
export interface PassHatK {
  readonly k: number;
  readonly value: number;
  readonly scenarios: number;
}

/** A judge model's opinion over the finished dialogues (errors left out), never in the verdicts. */
export interface JudgeOpinion {
  readonly dialoguesJudged: number;
  /**
   * With the judge asked k times per policy (`judgeRepeats`): how many (dialogue, policy) pairs
   * it judged more than once, and in how many all its answers agreed.
   */
  readonly spread: { readonly repeated: number; readonly unanimous: number };
  /**
   * Judgements the judge model was asked for and could not give (a provider error, broken
   * output), over every dialogue, and in how many dialogues: an error of the run, not silence.
   */
  readonly failed: {
    readonly judgements: number;
    readonly dialogues: number;
    readonly first?: string;
  };
  readonly byPolicy: readonly {
    readonly policy: string;
    readonly judged: number;
    readonly violated: number;
  }[];
  /**
   * Where the judge and the deterministic findings both looked at a policy in a dialogue: how
   * often they agree (both say kept, or both say broken), and each place they do not.
   */
  readonly agreement: {
    readonly compared: number;
    readonly agreed: number;
    readonly disagreements: readonly {
      readonly dialogue: string;
      readonly policy: string;
      /** What the judge said: violated or kept. */
      readonly judgeViolated: boolean;
    }[];
  };
  /**
   * What people said when they reviewed the run in Replay (the latest mark on each target): how
   * many of the judge's opinions they marked and found right, and how many deterministic findings
   * they marked and found wrong.
   */
  readonly people: {
    readonly judgeMarked: number;
    readonly judgeRight: number;
    readonly findingsMarked: number;
    readonly findingsWrong: number;
    /** How many of the judge's opinions of assertions they marked, and found right. */
    readonly assertionsMarked: number;
    readonly assertionsRight: number;
  };
  /**
   * The scenarios' natural-language assertions over the ended dialogues: how many the judge
   * found met and not met, and how many were not judged (no judge model, an error, no answer).
   */
  readonly assertions: {
    readonly met: number;
    readonly notMet: number;
    readonly notJudged: number;
    /** Of them, those whose scenario is graded by its assertions: their opinion decides. */
    readonly graded: number;
  };
}

/** How far the run got. `unfinished`: no `run-ended` (still going or interrupted). */
export interface Progress {
  readonly scenarios: number;
  readonly dialoguesStarted: number;
  readonly dialoguesEnded: number;
  readonly dialoguesExpected: number;
  readonly running: number;
  readonly ended: 'done' | 'cancelled' | 'budget' | 'unfinished';
}

/** Everything the report shows, folded from the event log alone. */
export interface RunReport {
  readonly run: {
    readonly seed: number;
    readonly projectHash: string;
    readonly models: Readonly<Partial<Record<ModelRole, string>>>;
    readonly trials: number;
    /** The agent was the user's own endpoint: no tool call or database change was seen. */
    readonly externalAgent: boolean;
    /** The policies whose verdict the judge model's opinion decided in this run. */
    readonly judgeDecides: readonly string[];
  } | null;
  readonly progress: Progress;
  /** Null when the run wrote no scenarios from samples. */
  readonly generation: GenerationReport | null;
  /** Over finished dialogues, errors left out of the denominator. */
  readonly overall: PassRate;
  readonly errors: {
    readonly total: number;
    readonly byReason: readonly { readonly reason: TerminationReason; readonly count: number }[];
  };
  /** Dialogues the simulated user probably spoiled, waiting for a person's review. */
  readonly suspect: number;
  /** Failures no finding ties to a policy, by dialogue: never charged to any policy. */
  readonly unattributed: readonly (Breach & {
    readonly dialogue: string;
    readonly scenario: string;
    readonly trial: number;
  })[];
  readonly byLevel: readonly LevelReport[];
  readonly byPolicy: readonly PolicyReport[];
  readonly byCategory: readonly CategoryReport[];
  /** k = 1 .. the run's trials. */
  readonly passHatK: readonly PassHatK[];
  readonly scenarios: readonly ScenarioSummary[];
  /** By scenario id, then trial. */
  readonly dialogues: readonly DialogueReport[];
  readonly judgeOpinion: JudgeOpinion;
  /** Tokens and dollars, in total and per role; cost null once any call was unpriced. */
  readonly usage: UsageLedger;
  /** From the first event to the last, on the run's clock. */
  readonly wallMs: number;
  /** Milliseconds spent waiting on each role's model, retries and repairs included. */
  readonly msByRole: Readonly<Partial<Record<ModelRole, number>>>;
  /** Adversarial scenarios and false alarms on their twins, apart; absent when none is tagged. */
  readonly attack?: AttackReport;
}
