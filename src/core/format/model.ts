import type { PromptKey } from '../sim/prompts.ts';
import type { GRADED_EXPECTATIONS } from './schemas.ts';
import type { YamlPath } from './yamlFile.ts';

/** Where an entity is written: its file's YAML path (so diagnostics can point into it). */
export interface Located {
  readonly path: YamlPath;
}

export type RelationOrigin = 'manual' | 'heuristic' | 'model';

export interface Policy extends Located {
  readonly id: string;
  readonly text: string;
  readonly category: string;
  readonly challenge: number;
  readonly tools: readonly string[];
  readonly source?: { readonly line: number; readonly endLine?: number };
  /** The flows (sections of agent.md) that state it; absent when none are named. */
  readonly flows?: readonly string[];
  /**
   * `judge: decides`: when no deterministic check covers it, the judge model's opinion decides
   * its verdict in a run with a judge, labelled as decided by a model.
   */
  readonly judgeDecides?: true;
}

export interface Relation extends Located {
  readonly between: readonly [string, string];
  readonly weight: number;
  readonly origin: RelationOrigin;
  /** Why the weight is what it is, in one line: a model's reason for its rating. */
  readonly reason?: string;
}

export type EffectOp = 'select' | 'insert' | 'update' | 'delete';

export interface Effect extends Located {
  readonly op: EffectOp;
  readonly table: string;
  readonly where?: string;
  readonly columns: Readonly<Record<string, string>>;
  /** `for_each`: a CEL list; the effect runs once per item, in order (none when it is empty). */
  readonly forEach?: string;
  /** `as`: the name the effect's CEL gives the current item of `forEach` (default `item`). */
  readonly as?: string;
  /** `when`: a CEL condition; the effect (or this item's run of it) is skipped when false. */
  readonly when?: string;
}

export interface JsonSchemaObject {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required?: readonly string[];
}

/**
 * A condition a tool needs to work (`requires:` in tools.yaml), checked after the guards allow
 * the call and before its effects run; when it does not hold, the call fails with `error`.
 */
export interface Precondition extends Located {
  readonly condition: string;
  readonly error: string;
  /**
   * `not_imported: true`: where the condition does not hold the tool does what an importer could
   * not carry (a path of its code); a call there ends the dialogue as an error of the project.
   */
  readonly notImported?: true;
  /**
   * `policy`: the policy this condition encodes ("only pending orders can be cancelled"). A call
   * it refuses is then the agent's attempt at what the policy forbids: a finding against it.
   */
  readonly policy?: string;
  /** Whether such an attempt fails the dialogue (`fails`, the default) or is only noted. */
  readonly attempt?: AttemptWeight;
}

/**
 * What a refused attempt at a forbidden act counts for (`attempt:` on a guard rule or a
 * precondition that names a policy): `fails` the dialogue, as a breach would, or is `noted`
 * (shown and counted in the policy's row, the dialogue not failed), for a rule that was designed
 * to catch it.
 */
export type AttemptWeight = 'fails' | 'noted';

/**
 * Whose a tool or table is (dual control): the agent's (the default), or the simulated user's
 * own (a phone's settings), which only the user's tools read and write.
 */
export type Side = 'agent' | 'user';

export interface Tool extends Located {
  readonly name: string;
  readonly description: string;
  readonly kind: 'read' | 'write';
  readonly parameters: JsonSchemaObject;
  readonly effects: readonly Effect[];
  readonly returns?: string;
  /** What must hold for the tool to work, in order; absent when tools.yaml lists none. */
  readonly requires?: readonly Precondition[];
  /** `side: user`: only the simulated user may call it; absent for the agent's tools. */
  readonly side?: Side;
  /**
   * `not_imported`: why the tool's behaviour is not in the project (an importer could not carry
   * its code). A call to it never answers as if it worked: it ends the dialogue as an error.
   */
  readonly notImported?: string;
  /**
   * `runs: setup`: only a scenario's `initialization` calls it; `runs: after_each_call`: the
   * environment runs it, with no arguments, after every tool call of either side (tau2-bench's
   * `sync_tools`). Either way no model is offered it.
   */
  readonly runs?: ToolRuns;
}

export type ToolRuns = 'setup' | 'after_each_call';

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/**
 * How an insert that leaves a column out makes a fresh value for it: `prefix` then a number
 * (at least `digits` long) for text, the next whole number for an integer column.
 */
export interface GeneratedSpec {
  readonly prefix: string;
  readonly digits: number;
}

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly enum?: readonly unknown[];
  readonly nullable: boolean;
  readonly references?: string;
  /** A JSON Schema every value of an `array` or `object` column must fit. */
  readonly schema?: Readonly<Record<string, unknown>>;
  /** Inserts that leave this column out get a fresh value (`generated:`). */
  readonly generated?: GeneratedSpec;
}

export type Row = Readonly<Record<string, unknown>>;

export interface Table extends Located {
  readonly name: string;
  readonly key: string;
  readonly columns: readonly Column[];
  readonly rows: readonly Row[];
  /** `side: user`: the user's own state, read and written by the user's tools only. */
  readonly side?: Side;
}

export interface GuardRule extends Located {
  readonly id: string;
  readonly tool: string;
  readonly policy: string;
  readonly decision: 'allow' | 'forbid';
  readonly when?: string;
  readonly fallback: 'message' | 'end' | 'ask_user';
  readonly message?: string;
  readonly ifMissing: 'forbid' | 'skip';
  /** What a call this rule refuses counts for: `fails` (the default) or `noted`. */
  readonly attempt: AttemptWeight;
}

export interface ToolGuards extends Located {
  readonly tool: string;
  readonly defaultDecision: 'allow' | 'deny';
  readonly rules: readonly GuardRule[];
}

export type CheckKind =
  | 'must_say'
  | 'must_not_say'
  | 'tool_order'
  | 'confirm_before'
  | 'never_call'
  | 'max_calls'
  | 'max_calls_per_turn'
  | 'say_before_call'
  | 'grounded'
  | 'silent_call'
  | 'wait_for_result'
  | 'transfer_only_when';

/** What a `grounded` check holds to a source: amounts, ids, dates and other numbers. */
export type FactKind = 'amounts' | 'ids' | 'dates' | 'numbers';

export interface Check extends Located {
  readonly id: string;
  readonly policy: string;
  readonly kind: CheckKind;
  readonly pattern?: string;
  readonly tool?: string;
  readonly first?: string;
  readonly then?: string;
  readonly max?: number;
  /** `confirm_before`: which writes one yes licenses (confirmations.ts); `listed` by default. */
  readonly covers?: ConfirmCovers;
  /** `grounded`: the kinds of fact held to a source; all of them when absent. */
  readonly facts?: readonly FactKind[];
  /** `transfer_only_when`: a refused attempt (a guard's or a precondition's) also permits it. */
  readonly afterRefusal?: boolean;
}

/**
 * How far one yes reaches under a `confirm_before` check: `each` write needs its own; the writes
 * of the one agent `turn` that acts on it; or the writes the agent `listed` in the proposal the
 * yes answered (each named by its arguments), else just the next.
 */
export type ConfirmCovers = 'each' | 'turn' | 'listed';

/** An expected action's arguments (tau2-bench's `arguments` and `compare_args`). */
export interface ExpectedArgs {
  readonly args: Readonly<Record<string, unknown>>;
  /** The arguments to compare; when left out, those the call gives (sim/actionMatch.ts). */
  readonly compare?: readonly string[];
}

/** A statement about the dialogue in plain words, for the judge model's opinion (tau2's `nl_assertions`). */
export interface NlAssertion {
  readonly text: string;
  /** The policy it holds the agent to, where scenarios.yaml names one. */
  readonly policy?: string;
}

export interface ScenarioExpectations {
  readonly database: readonly string[];
  readonly requiredActions: readonly string[];
  readonly forbiddenActions: readonly string[];
  readonly mustSay: readonly string[];
  readonly mustNotSay: readonly string[];
  /**
   * The policy each expectation holds the agent to, where scenarios.yaml names one, by the id of
   * its finding (`expected.database[0]`, `expected.forbidden_actions[1]`, ...).
   */
  readonly attributions?: Readonly<Record<string, string>>;
  /**
   * The arguments a required action must be called with, by its finding id
   * (`expected.required_actions[0]`), where scenarios.yaml gives `args:`.
   */
  readonly actionArgs?: Readonly<Record<string, ExpectedArgs>>;
  /**
   * Statements the judge model gives its opinion on after the dialogue; never a deterministic
   * finding, and not judged at all without a judge model.
   */
  readonly assertions?: readonly NlAssertion[];
  /**
   * CEL conditions over the user's tables, checked at the end like database assertions
   * (`user_assertions:`, dual control); absent when the scenario has none.
   */
  readonly userAssertions?: readonly string[];
  /** Required actions the simulated user must make, by finding id (`requestor: user`). */
  readonly requestors?: Readonly<Record<string, 'user'>>;
  /**
   * The database at the end, as tau2-bench grades it (`end_state:`): the rows that change, by
   * table and key, with the fields they end with (`null`: the row is gone); every row not listed
   * ends as it started. Absent when the scenario has none.
   */
  readonly endState?: EndState;
  /**
   * The expectations that decide the dialogue's verdict (`graded_by:`, tau2-bench's
   * `reward_basis`), by their key in scenarios.yaml; absent when every deterministic one does and
   * the natural-language assertions are opinions only. A failure of one not named is shown, marked
   * not graded; `assertions` named makes a "not met" opinion of the judge fail the dialogue.
   */
  readonly gradedBy?: readonly GradedExpectation[];
  /**
   * What the scenario's source expects that could not be carried (`not_checked:`, written by an
   * importer): each is an unclear finding in every dialogue, never one that held.
   */
  readonly notChecked?: readonly string[];
}

/** An expectation list a scenario can be graded by (`graded_by:`). */
export type GradedExpectation = (typeof GRADED_EXPECTATIONS)[number];

/** `expected.end_state`: table → row key → the row's fields at the end, or null when deleted. */
export type EndState = Readonly<
  Record<string, Readonly<Record<string, Readonly<Record<string, unknown>> | null>>>
>;

/** A tool call run on the seed database before the dialogue (`initialization:`). */
export interface ToolInvocation {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** An earlier turn the dialogue starts from (`message_history:`). */
export interface HistoryMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

export interface Scenario extends Located {
  readonly id: string;
  /** The policies under test; may be empty (tau2-bench's tasks name none). */
  readonly policies: readonly string[];
  /** Who the simulated user is; '' when scenarios.yaml leaves it out (a default is used). */
  readonly persona: string;
  readonly goal: string;
  readonly knows: readonly string[];
  readonly unknown: readonly string[];
  readonly rows: Readonly<Record<string, readonly Row[]>>;
  readonly expected: ScenarioExpectations;
  /** Tool calls (either side's) run in order before the dialogue; absent when none. */
  readonly initialization?: readonly ToolInvocation[];
  /** Earlier turns the dialogue starts from; absent when none. */
  readonly messageHistory?: readonly HistoryMessage[];
  /** Free labels (`adversarial`, `contrastive`, ...); absent when none (see attackTags.ts). */
  readonly tags?: readonly string[];
  /** The tactic an adversarial scenario uses (`urgency`, ...); absent when none. */
  readonly tactic?: string;
  /** The scenario this contrastive twin is the acceptable look-alike of; absent when none. */
  readonly twinOf?: string;
}

/**
 * The project's own text for one of the prompts the simulation sends (`prompts:` in
 * scenarios.yaml), replacing the built-in one; `path` is `['prompts', key]`.
 */
export interface PromptOverride extends Located {
  readonly key: PromptKey;
  readonly text: string;
}

/** The project as data, derived from its files. Entries that could not be read are left out. */
export interface ProjectModel {
  readonly prompt: string;
  readonly policies: readonly Policy[];
  readonly relations: readonly Relation[];
  readonly tools: readonly Tool[];
  readonly tables: readonly Table[];
  readonly guards: readonly ToolGuards[];
  readonly checks: readonly Check[];
  readonly scenarios: readonly Scenario[];
  /** The prompts the project words itself, in the order written (scenarios.yaml `prompts:`). */
  readonly prompts: readonly PromptOverride[];
  /**
   * The time the project's runs see as `now` (database.yaml `now:`, ISO-8601 with an offset),
   * instead of the wall clock; absent when the project does not fix it.
   */
  readonly now?: string;
}
