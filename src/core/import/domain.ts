/**
 * The neutral shape every importer reads a domain into (tau2-bench, IntellAgent), before any
 * of it becomes PolicyLab files. It keeps what the source says, nested values and tool bodies
 * included, so the mapping to the format can carry more as the format grows.
 */

/** A JSON Schema, as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A JSON value from a domain's data. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Where something came from: a file of the domain and, when known, a line (1-based). */
export interface SourcePlace {
  readonly file: string;
  readonly line?: number;
}

/** A tool's own failure, as its source states it (`if …: raise ValueError("…")`). */
export interface ImportedPrecondition {
  /** The condition as source text (Python), when the failure sits under an `if`. */
  readonly condition?: string;
  readonly message: string;
  readonly place: SourcePlace;
  /** True when the condition alone decides the failure (it sits directly under a top-level `if`). */
  readonly direct?: boolean;
  /**
   * The helper it comes from (`_get_order`), when the tool calls one; its condition is then
   * written in the tool's terms (the helper's parameters replaced by the call's arguments).
   */
  readonly via?: string;
}

/** A tool the agent may call. */
export interface ImportedTool {
  readonly name: string;
  readonly description: string;
  /** The source's own kind: tau2's ToolType (read, write, generic, think) or a guess. */
  readonly kind: 'read' | 'write' | 'generic' | 'think';
  /** Arguments as a JSON Schema (type: object). */
  readonly parameters: JsonSchema;
  readonly preconditions: readonly ImportedPrecondition[];
  /** The body as source text, kept for the report (never run). */
  readonly body: string;
  /** The source of the helper methods beside it (`_get_order`), by name, read with the body. */
  readonly helpers?: Readonly<Record<string, string>>;
  /** Its class's attributes with a value (`default_vpn_details = VpnDetails(…)`), as source. */
  readonly attributes?: Readonly<Record<string, string>>;
  readonly place: SourcePlace;
}

/** A table of the domain's database. */
export interface ImportedTable {
  readonly name: string;
  readonly description?: string;
  /** The column that keys a row. */
  readonly key: string;
  /** Each column's JSON Schema, in order. */
  readonly columns: ReadonlyArray<{
    readonly name: string;
    readonly schema: JsonSchema;
    readonly required: boolean;
  }>;
  readonly rows: ReadonlyArray<Readonly<Record<string, JsonValue>>>;
  /** How many rows the source held before slicing. */
  readonly sourceRows: number;
  /**
   * Set when the source holds one record, not a collection (a user's phone): its one row is
   * keyed `id`, equal to the table's name, and code reads it as `self.db.<name>`.
   */
  readonly record?: true;
}

/** One tool call a task expects, with its arguments. */
export interface ImportedAction {
  readonly name: string;
  readonly arguments: Readonly<Record<string, JsonValue>>;
  /** The arguments to compare (tau2's `compare_args`), when the task names them. */
  readonly compareArgs?: readonly string[];
  /** `user` when the simulated user must make the call (tau2's `requestor`, dual control). */
  readonly requestor?: 'user';
}

/**
 * A call of one side's environment function (tau2's `EnvFunctionCall`): an initialization
 * action, or with `assertValue` an environment assertion.
 */
export interface ImportedEnvCall {
  /** Whose environment: the user's device or the agent's database. */
  readonly env: 'user' | 'assistant';
  readonly func: string;
  readonly arguments: Readonly<Record<string, JsonValue>>;
  /** For an assertion: what the function must return (tau2's `assert_value`, default true). */
  readonly assertValue?: boolean;
}

/** A turn a task's dialogue starts from (tau2's `message_history`), as its source gives it. */
export interface ImportedTurn {
  readonly role: string;
  readonly content: string;
  /** The turn also made tool calls (which a history turn cannot carry). */
  readonly toolCalls?: boolean;
  /** Those tool calls, each with a name, as the source gives them. */
  readonly calls?: ReadonlyArray<{
    readonly name: string;
    readonly arguments: Readonly<Record<string, JsonValue>>;
  }>;
}

/** A task (a tau2 task): who the user is, what they want, and how it is graded. */
export interface ImportedTask {
  readonly id: string;
  readonly persona?: string;
  readonly goal: string;
  readonly instructions?: string;
  readonly knows: readonly string[];
  readonly unknown: readonly string[];
  readonly actions: readonly ImportedAction[];
  readonly communicate: readonly string[];
  readonly nlAssertions: readonly string[];
  /** Dual control: calls run before the dialogue (tau2's `initialization_actions`). */
  readonly initialization?: readonly ImportedEnvCall[];
  /** Dual control: the turns the dialogue starts from (tau2's `message_history`). */
  readonly messageHistory?: readonly ImportedTurn[];
  /** Dual control: assertions on the final environment (tau2's `env_assertions`). */
  readonly envAssertions?: readonly ImportedEnvCall[];
  /**
   * Rows the task's database starts with changed (tau2's `initialization_data`): per side, per
   * table, partial records merged into the domain's as tau2 merges them.
   */
  readonly initialData?: {
    readonly agent?: Readonly<Record<string, JsonValue>>;
    readonly user?: Readonly<Record<string, JsonValue>>;
  };
  /**
   * What the task is graded on (tau2's `reward_basis`: `DB`, `ACTION`, `COMMUNICATE`,
   * `NL_ASSERTION`, `ENV_ASSERTION`), when it says; tau2 reads none as `DB` and `COMMUNICATE`.
   */
  readonly rewardBasis?: readonly string[];
  /** Parts of the task the importer recognised but has no field for, by name. */
  readonly extras: ReadonlyArray<{ readonly what: string; readonly value: JsonValue }>;
}

/** A function of a domain's source that is not a tool, kept as source text (never run). */
export interface ImportedFunction {
  readonly name: string;
  /** Its parameters (without `self`), with their defaults as source text. */
  readonly params: ReadonlyArray<{
    readonly name: string;
    readonly default?: string;
    /** Its annotation as written (`float`, `Optional[str]`). */
    readonly annotation?: string;
  }>;
  /** Each statement of its body (the docstring left out), as source text on one line. */
  readonly statements: readonly string[];
  /** The whole `def`, and the private helpers of its class (`_get_task`) by name, as source. */
  readonly text?: string;
  readonly helpers?: Readonly<Record<string, string>>;
  readonly place: SourcePlace;
}

/** Something an importer could not read, or chose to leave out, by item. */
export interface ImportNote {
  readonly item: string;
  readonly message: string;
  readonly place?: SourcePlace;
}

/**
 * An IntellAgent data validator (a `@validator(table=…)` function in `validators/*.py`): it checks
 * the rows IntellAgent's generator makes. Read as source, never run, and not carried.
 */
export interface ImportedValidator {
  readonly name: string;
  /** The table its decorator names. */
  readonly table?: string;
  /** What it checks in its own words (its docstring or what it raises), when that reads plainly. */
  readonly checks?: string;
  readonly place: SourcePlace;
}

/** A whole imported domain. */
export interface ImportedDomain {
  readonly name: string;
  readonly source: 'tau2' | 'intellagent';
  /** The agent's policy document (tau2's policy.md, IntellAgent's wiki.md), Markdown. */
  readonly policy: string;
  readonly tools: readonly ImportedTool[];
  readonly tables: readonly ImportedTable[];
  readonly tasks: readonly ImportedTask[];
  /** Tools the user calls on their own device (tau2's dual control, `user_tools.py`). */
  readonly userTools?: readonly ImportedTool[];
  /** IntellAgent's data validators (`validators/*.py`), listed in the report as not carried. */
  readonly validators?: readonly ImportedValidator[];
  /**
   * The user's own state (tau2's user database, `user_db.json`): tables of the user's side, each
   * an object of rows, or one object that becomes a one-row table.
   */
  readonly userTables?: readonly ImportedTable[];
  /**
   * The other functions of `user_tools.py` (setters that initialization actions call, and the
   * assertion functions `env_assertions` name), kept as source, never run.
   */
  readonly userFunctions?: readonly ImportedFunction[];
  /**
   * The functions of `tools.py` that are not tools (the assertion functions `env_assertions` on
   * the agent's side name), kept as source, never run.
   */
  readonly agentFunctions?: readonly ImportedFunction[];
  /**
   * The public methods of `tools.py` and `user_tools.py` that are not tools, read as write
   * tools: tau2's initialization actions call them (`set_data_usage`, `turn_data_off`).
   */
  readonly setupFunctions?: {
    readonly agent: readonly ImportedTool[];
    readonly user: readonly ImportedTool[];
  };
  /**
   * The environment's own step after every call (tau2's `sync_tools` in `environment.py`), as
   * source, with the methods of both toolkits it may call (`self.tools._get_line_by_phone`).
   */
  readonly environment?: {
    readonly sync: { readonly body: string; readonly place: SourcePlace };
    readonly helpers: {
      readonly agent: Readonly<Record<string, string>>;
      readonly user: Readonly<Record<string, string>>;
    };
  };
  /** Module-level functions of the domain's Python (`get_today()`), as source, by name. */
  readonly functions?: Readonly<Record<string, string>>;
  /** Each model class's field defaults (`status: "unread"`), as pydantic fills them in. */
  readonly modelDefaults?: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** The Enum classes of the domain's Python (`LineStatus.ACTIVE` is "Active"), by class. */
  readonly enums?: PyEnums;
  /** What could not be read while reading the source. */
  readonly notes: readonly ImportNote[];
}

/** What the tool reader knows of the domain's Python beyond a body: its enums and defaults. */
export interface PyKnown {
  readonly enums?: PyEnums;
  /** Module-level functions of the domain's Python (`get_today()` in utils.py), as source. */
  readonly functions?: Readonly<Record<string, string>>;
  readonly modelDefaults?: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
}

/** Enum classes by name, each member's value by member name. */
export type PyEnums = Readonly<Record<string, Readonly<Record<string, string | number | boolean>>>>;

/** The domain's files, by path relative to its folder; an importer never touches a disk. */
export type DomainFiles = ReadonlyMap<string, string>;
