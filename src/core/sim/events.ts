import type { ModelRole, Usage } from '../models/chat.ts';
import type { ModelErrorKind } from '../models/errors.ts';
import type { PriceTable } from '../models/usage.ts';
import { callCost } from '../models/usage.ts';
import { isTokenCount } from '../models/usageCheck.ts';
import type {
  EndState,
  ExpectedArgs,
  GradedExpectation,
  HistoryMessage,
  NlAssertion,
  Row,
  ToolInvocation,
} from '../format/model.ts';
import type { TerminationReason } from './endings.ts';
import type { PromptSource } from './prompts.ts';

export type { TerminationReason } from './endings.ts';
export { ENDING_LABELS, ERROR_ENDINGS } from './endings.ts';

/**
 * A simulation run is an append-only log of these events (DESIGN.md, "The simulation is an
 * event log"). Progress, the report and replay are folds over the log, so a replay never calls a
 * model and a saved run replays identically. Every event is plain JSON.
 */

/** Milliseconds since the run started, on the run's injected clock. */
export type RunMs = number;

/** A change one tool call made to one row: what it was and what it became. */
export interface RowChange {
  readonly table: string;
  /** The row's key value. */
  readonly key: string;
  readonly kind: 'insert' | 'update' | 'delete';
  readonly before?: Row;
  readonly after?: Row;
}

/** The whole database: rows by table name. */
export type Database = Readonly<Record<string, readonly Row[]>>;

/** Who spoke in a dialogue. */
export type Speaker = 'user' | 'agent';

/** How a model call failed: a ModelError's kind, or `unexpected` for an engine's own fault. */
export type CallFailure = ModelErrorKind | 'unexpected';

/** The model name a person's seat is recorded under in the log (Play). */
export const PERSON = 'person';

import type { Finding } from './finding.ts';
export type { Finding, FindingState } from './finding.ts';
export { findingState } from './finding.ts';

/** Which prompt a run sent: its id, the version of the built-in, and whose text it was. */
export interface PromptUse {
  readonly id: string;
  readonly version: number;
  readonly source: PromptSource;
}

/** A scenario as the run uses it (hand-written from scenarios.yaml, or generated). */
export interface SimScenario {
  readonly id: string;
  readonly policies: readonly string[];
  /** Sum of the challenges of its policies, when sampled from the graph. */
  readonly level?: number;
  readonly persona: string;
  readonly goal: string;
  readonly knows: readonly string[];
  readonly unknown: readonly string[];
  /** Rows added to the seed data for this scenario. */
  readonly rows: Database;
  readonly expected: {
    readonly database: readonly string[];
    readonly requiredActions: readonly string[];
    readonly forbiddenActions: readonly string[];
    readonly mustSay: readonly string[];
    readonly mustNotSay: readonly string[];
    /** The policy each expectation holds the agent to, by finding id, where the author named one. */
    readonly attributions?: Readonly<Record<string, string>>;
    /** The arguments a required action must be called with, by finding id (actionMatch.ts). */
    readonly actionArgs?: Readonly<Record<string, ExpectedArgs>>;
    /** Natural-language assertions for the judge model's opinion (assertionJudge.ts). */
    readonly assertions?: readonly NlAssertion[];
    /** CEL conditions over the user's tables, checked at the end (dual control). */
    readonly userAssertions?: readonly string[];
    /** Required actions the simulated user must make, by finding id (`requestor: user`). */
    readonly requestors?: Readonly<Record<string, 'user'>>;
    /** The rows that change and how; every other row ends as it started (endState.ts). */
    readonly endState?: EndState;
    /**
     * The expectations that decide the verdict (`graded_by:`); absent when every deterministic
     * one does and the assertions are opinions only (judging.ts).
     */
    readonly gradedBy?: readonly GradedExpectation[];
    /** What the scenario's source expects that could not be carried: unclear in every dialogue. */
    readonly notChecked?: readonly string[];
  };
  /** Tool calls run on the starting database before the first turn (dual control). */
  readonly initialization?: readonly ToolInvocation[];
  /** Earlier turns the dialogue starts from. */
  readonly messageHistory?: readonly HistoryMessage[];
  /** scenarios.yaml's `tags` (`adversarial`, `contrastive`, ...), when it gives any. */
  readonly tags?: readonly string[];
  /** The tactic of an adversarial scenario (format/attackTags.ts). */
  readonly tactic?: string;
  /** The scenario a contrastive twin is the acceptable look-alike of. */
  readonly twinOf?: string;
}

/**
 * Who made a logged tool call other than the agent: the simulated user with one of its own
 * tools (dual control), or the scenario's `initialization:` before the first turn.
 */
export type CallMaker = 'user' | 'setup';

/** Expectations that ask nothing: a scenario with these passes whatever the agent does. */
export const NOTHING_EXPECTED: SimScenario['expected'] = {
  database: [],
  requiredActions: [],
  forbiddenActions: [],
  mustSay: [],
  mustNotSay: [],
};

/**
 * The format version of the event log this code writes, recorded in `run-started`. Logs are
 * read through `readLog` (logFormat.ts), which validates them and migrates older versions; a
 * change to the shape of an event raises this number and adds a migration there.
 */
export const LOG_VERSION = 5;

/**
 * The project's seed rows as the run started, once per run: with each scenario's own rows they
 * give the database every dialogue began from, so a replay can show the whole database at any
 * step (the log's changes alone only show what was touched).
 */
export interface StartingData {
  readonly tables: readonly {
    readonly name: string;
    /** The key column, which scenario rows replace seed rows by. */
    readonly key: string;
    readonly rows: readonly Row[];
  }[];
}

/**
 * Where a derived run came from: a dialogue continued from one of its agent turns with the
 * project as it is now (the continued dialogue's messages before `turn` are the source's,
 * copied); or a whole run judged again against the project's checks and expectations as they are
 * now, without a model call (its dialogues are the source's, copied).
 */
export type RunSource =
  | {
      readonly kind: 'continued';
      readonly run: string;
      readonly dialogue: string;
      /** The raw message index of the agent turn the new dialogue was re-run from. */
      readonly turn: number;
    }
  | { readonly kind: 'rechecked'; readonly run: string };

/**
 * What a person's mark is about: a deterministic finding (by id), the judge's opinion of a
 * policy, or the judge's opinion of a scenario's natural-language assertion (by its id,
 * `expected.assertions[0]`).
 */
export type MarkTarget =
  | { readonly kind: 'finding'; readonly id: string }
  | { readonly kind: 'judge'; readonly policy: string }
  | { readonly kind: 'assertion'; readonly id: string };

/** One event of a run. `dialogue` ties an event to one trial of one scenario. */
export type SimEvent =
  | {
      readonly type: 'run-started';
      readonly at: RunMs;
      /** The log's format version (`LOG_VERSION` when written); logs before versions were 1. */
      readonly version: number;
      readonly seed: number;
      /** The project's content hash, so a report says which version of the files it judged. */
      readonly projectHash: string;
      /**
       * The project's files the run judged (whose hash `projectHash` is), so two runs' files can
       * be set side by side; logs written before runs kept their files lack them.
       */
      readonly files?: Readonly<Record<string, string>>;
      readonly models: Readonly<Partial<Record<ModelRole, string>>>;
      readonly trials: number;
      /** The agent was the user's own endpoint: its tool calls and database were not seen. */
      readonly externalAgent?: true;
      /**
       * The prompts this run sends, and whether each is PolicyLab's own or the project's (whose
       * text the project hash covers). Empty for logs written before prompts were recorded.
       */
      readonly prompts: readonly PromptUse[];
      /** The simulated date and time conditions saw as `now` (logs before format 3 lack it). */
      readonly now?: string;
      /** The project's seed rows (logs before format 3 lack them). */
      readonly database?: StartingData;
      /** The run this one was derived from, for a derived run. */
      readonly source?: RunSource;
      /** The slice of the run's scenario × trial jobs this log holds, when it was sharded. */
      readonly shard?: { readonly index: number; readonly count: number };
      /**
       * The policies whose verdict the judge model's opinion decides in this run (nothing
       * deterministic covers them, and the run or the policy asked for it).
       */
      readonly judgeDecides?: readonly string[];
      /** How many times the judge was asked about each policy, when more than once. */
      readonly judgeRepeats?: number;
    }
  | {
      readonly type: 'scenario';
      readonly at: RunMs;
      readonly scenario: SimScenario;
      readonly source: 'hand-written' | 'generated';
      /**
       * Whether the scenario passes when the agent does nothing at all (no tool call, no change):
       * such a scenario cannot tell a working agent from an idle one.
       */
      readonly baseline?: { readonly passes: boolean; readonly detail: string };
    }
  | {
      /** The generator could not write a valid scenario for one sampled combination. */
      readonly type: 'scenario-failed';
      readonly at: RunMs;
      readonly sample: { readonly policies: readonly string[]; readonly level: number };
      /** Why, in words a person understands (the last problem, or the provider's error). */
      readonly error: string;
      /** Answers the generator gave for it, repair turns included (0: none could be asked). */
      readonly attempts?: number;
    }
  | {
      readonly type: 'dialogue-started';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly scenario: string;
      /** Which of the k trials, from 0. */
      readonly trial: number;
    }
  | {
      readonly type: 'message';
      readonly at: RunMs;
      readonly dialogue: string;
      /** Index of this message among the dialogue's messages, from 0. */
      readonly turn: number;
      readonly speaker: Speaker;
      readonly text: string;
    }
  | {
      readonly type: 'tool-call';
      readonly at: RunMs;
      readonly dialogue: string;
      /**
       * The message (turn) this call belongs to: the agent's; for a user's call, the user's
       * message it came with (or the next one); for a setup call, 0.
       */
      readonly turn: number;
      readonly call: string;
      readonly tool: string;
      readonly args: Readonly<Record<string, unknown>>;
      /** Made by the simulated user or the scenario's setup; absent for the agent's calls. */
      readonly by?: CallMaker;
    }
  | {
      readonly type: 'guard';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly call: string;
      readonly allowed: boolean;
      /** The rule that decided, if a rule did. */
      readonly rule?: string;
      readonly policy?: string;
      readonly fallback?: 'message' | 'end' | 'ask_user';
      readonly reason: string;
      /** The refusing rule's `attempt: noted`: the attempt is counted, the dialogue not failed. */
      readonly noted?: true;
    }
  | {
      readonly type: 'tool-result';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly call: string;
      readonly ok: boolean;
      /** What the agent is told (JSON), or the error text. */
      readonly result: string;
      readonly changes: readonly RowChange[];
      /**
       * A precondition that encodes a policy refused the call: the agent tried what that policy
       * forbids (its index in the tool's `requires`, from 0).
       */
      readonly refusedBy?: {
        readonly precondition: number;
        readonly policy: string;
        readonly noted?: true;
      };
      /** The policies the tool's preconditions held the call to (examined, held or not). */
      readonly checked?: readonly string[];
    }
  | {
      readonly type: 'dialogue-ended';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly reason: TerminationReason;
      readonly detail: string;
      /** Whose model call failed, for endings caused by one (a provider error, broken output). */
      readonly role?: ModelRole;
    }
  | {
      readonly type: 'checks';
      readonly at: RunMs;
      readonly dialogue: string;
      /** Transcript checks from rules.yaml, then the scenario's expectations. */
      readonly findings: readonly Finding[];
    }
  | {
      /**
       * The simulated user probably erred in this dialogue (sim/suspect.ts): it is kept out of
       * the pass rate until a person reviews it.
       */
      readonly type: 'suspect';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly reasons: readonly string[];
    }
  | {
      /**
       * A person's review of a dialogue flagged as simulator suspect: it `counts` as judged, or
       * is `discarded` as the simulation's error. The latest review of a dialogue stands.
       */
      readonly type: 'review';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly decision: 'counts' | 'discarded';
      readonly note?: string;
    }
  | {
      /**
       * A person says a finding or a judge's opinion in this dialogue is right or wrong (`null`
       * takes the mark back). The latest mark on a target stands.
       */
      readonly type: 'mark';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly target: MarkTarget;
      readonly correct: boolean | null;
    }
  | {
      /** A person's note on one turn of a dialogue; the latest note on a turn stands, '' removes it. */
      readonly type: 'note';
      readonly at: RunMs;
      readonly dialogue: string;
      /** The raw message index the note is on. */
      readonly turn: number;
      readonly text: string;
    }
  | {
      readonly type: 'judge';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly policy: string;
      readonly violated: boolean;
      readonly turn?: number;
      readonly reason: string;
      /** Quoted from the transcript. */
      readonly evidence: string;
    }
  | {
      /** The judge model could not give its opinion of a policy in a dialogue: why. */
      readonly type: 'judge-failed';
      readonly at: RunMs;
      readonly dialogue: string;
      readonly policy: string;
      readonly error: string;
    }
  | {
      /**
       * The judge model's opinion of one of the scenario's natural-language assertions
       * (assertionJudge.ts): an opinion, never a finding. An assertion without one was not judged.
       */
      readonly type: 'assertion';
      readonly at: RunMs;
      readonly dialogue: string;
      /** Which assertion: `expected.assertions[0]`, ... */
      readonly id: string;
      /** The statement, as the scenario wrote it. */
      readonly text: string;
      /** The policy the scenario names for it, if any. */
      readonly policy?: string;
      /** Whether the judge found the statement true of the dialogue. */
      readonly met: boolean;
      readonly turn?: number;
      readonly reason: string;
      /** Quoted from the transcript; empty when the judge quoted nothing that is there. */
      readonly evidence: string;
    }
  | {
      readonly type: 'usage';
      readonly at: RunMs;
      readonly dialogue?: string;
      readonly role: ModelRole;
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      /** Dollars; null when the model has no price. */
      readonly cost: number | null;
      /** How long the call took, retries and repair included. */
      readonly ms: number;
      /** The call failed, and how (its tokens are still counted and paid for). */
      readonly failed?: CallFailure;
      /**
       * The tokens are estimated from characters, and why: the provider reported none, or counts
       * that cannot be true (see usageCheck.ts). Its cost is an estimate too.
       */
      readonly estimated?: string;
    }
  | {
      /** The run goes on after an interruption (a reload, a closed tab). */
      readonly type: 'run-resumed';
      readonly at: RunMs;
      /** Dialogues cut off mid-way: each starts again, and its new start supersedes the old. */
      readonly rerun: readonly string[];
    }
  | {
      readonly type: 'run-ended';
      readonly at: RunMs;
      readonly reason: 'done' | 'cancelled' | 'budget';
    };

/** The event types, for exhaustive folds. */
export type SimEventType = SimEvent['type'];

/**
 * The `usage` event of one model call that ran from `start` to `end` on the run's clock, priced
 * from the table (null cost for an unpriced model); `failed` for a call that failed. Counts that
 * cannot be true are never logged (see usageCheck.ts).
 */
export function usageEvent(
  call: {
    readonly role: ModelRole;
    readonly model: string;
    readonly usage: Usage;
    readonly start: RunMs;
    readonly end: RunMs;
    readonly dialogue?: string;
    readonly failed?: CallFailure;
  },
  prices: PriceTable,
): Extract<SimEvent, { type: 'usage' }> {
  // Counts that reached here unchecked and cannot be true are logged as none known.
  const countable = isTokenCount(call.usage.inputTokens) && isTokenCount(call.usage.outputTokens);
  const usage: Usage = countable
    ? call.usage
    : {
        inputTokens: 0,
        outputTokens: 0,
        estimated: 'The engine gave token counts that cannot be true.',
      };
  return {
    type: 'usage',
    at: call.end,
    ...(call.dialogue !== undefined && { dialogue: call.dialogue }),
    role: call.role,
    model: call.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cost: callCost(call.model, usage, prices),
    ms: call.end - call.start,
    ...(call.failed !== undefined && { failed: call.failed }),
    ...(usage.estimated !== undefined && { estimated: usage.estimated }),
  };
}

/** The `run-started` event of a log, if it has one. */
export function runStartOf(
  events: readonly SimEvent[],
): Extract<SimEvent, { type: 'run-started' }> | undefined {
  return events.find(
    (e): e is Extract<SimEvent, { type: 'run-started' }> => e.type === 'run-started',
  );
}

/** The id of trial `trial` of a scenario; stable, so logs of equal runs are equal. */
export function dialogueId(scenario: string, trial: number): string {
  return `${scenario}#${trial + 1}`;
}
