import { CelRunError, compileCel, isCelProblem } from '../cel.ts';
import { TOOL_CALL_STEP_BUDGET, withCelBudget } from '../celMeter.ts';
import type { Effect, ProjectModel, Row, Table, Tool } from '../format/model.ts';
import type { ToolCall } from '../rules/guards.ts';
import { typedArgs } from '../rules/typedArgs.ts';
import { aside, closest } from '../text.ts';
import { diffDatabases, rowKey, validateRow } from './database.ts';
import { sameRow, toPlain } from './plainValues.ts';
import { generatedValue } from './generatedIds.ts';
import { argumentErrors } from './toolArguments.ts';
import type { Database, RowChange } from './events.ts';

/** What the simulation passes in besides the call: the clock, and optionally a smaller result cap. */
export interface ToolRunContext {
  /** The simulation clock as an ISO-8601 timestamp; expressions read it as `now`. */
  readonly now: string;
  /** The most characters of result the agent is shown (default `TOOL_RESULT_LIMIT`). */
  readonly resultLimit?: number;
}

/**
 * What a tool call did: the new database, the rows it changed and the JSON text the agent is
 * shown; or, when it failed, the database unchanged and why, for the agent and the log.
 */
export type ToolOutcome =
  | {
      readonly ok: true;
      readonly db: Database;
      readonly changes: readonly RowChange[];
      readonly result: string;
      /** The policies the tool's preconditions held the call to (`requires[].policy`). */
      readonly checked?: readonly string[];
    }
  | {
      readonly ok: false;
      readonly db: Database;
      readonly error: string;
      /** The tool's behaviour is not in the project: the caller must not go on as if it ran. */
      readonly notImported?: true;
      /** A precondition that encodes a policy refused it: the agent's attempt at what it forbids. */
      readonly refusedBy?: PreconditionRefusal;
      readonly checked?: readonly string[];
    };

/** The precondition (its index in `requires`, from 0) that refused a call, and its policy. */
export interface PreconditionRefusal {
  readonly precondition: number;
  readonly policy: string;
  /** The precondition's `attempt: noted`: counted, not failing the dialogue. */
  readonly noted?: true;
}

/** About 8 KB: enough for a screenful of rows, little enough that one big table does not flood the model. */
export const TOOL_RESULT_LIMIT = 8192;

/** A failure inside a call; the call is abandoned and the database left as it was. */
class CallFailure extends Error {}

/**
 * The call's arguments with each parameter it leaves out that declares a `default` given that
 * value, as the tool's own code would run it (a Python keyword argument's default).
 */
export function withDefaults(
  parameters: Tool['parameters'],
  args: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const properties = (parameters as { properties?: Record<string, { default?: unknown }> })
    .properties;
  let filled: Record<string, unknown> | undefined;
  for (const [name, schema] of Object.entries(properties ?? {})) {
    // `default: null` (Python's `= None`) leaves the argument out: effects test `has(args.x)`.
    if (args[name] !== undefined || schema.default === undefined || schema.default === null)
      continue;
    filled ??= { ...args };
    filled[name] = JSON.parse(JSON.stringify(schema.default)) as unknown;
  }
  return filled ?? args;
}

/**
 * Runs one tool call against the database, as the agent under test makes it. A tool marked
 * `not_imported` fails every call with `notImported` set, so no caller takes it for a success.
 * The arguments are
 * checked against the tool's parameter schema and typed by it (a declared integer is a CEL int),
 * then the tool's preconditions (`requires`) are tried in order: the first that does not hold
 * fails the call with its own error, and no effect runs. Then the tool's effects run in order,
 * each seeing the database as the effects before it left it (an effect with `for_each` once per
 * item, one whose `when` is false not at all; later ones read the rows inserted as `inserted`).
 * A call is all or nothing: if any
 * expression fails, or a write would leave a row that does not fit its table, a repeated key or
 * a changed key, nothing changes. The agent is shown the tool's `returns` expression when it
 * has one, else what its `select` effects found, else a summary of its writes. Its expressions
 * together run under one step budget (`TOOL_CALL_STEP_BUDGET`); past it the call fails. Pure and
 * deterministic; the input database is never modified.
 */
export function runTool(
  model: ProjectModel,
  db: Database,
  call: ToolCall,
  context: ToolRunContext,
): ToolOutcome {
  const outcome = runOneTool(model, db, call, context);
  return outcome.ok ? afterEachCall(model, db, outcome, context) : outcome;
}

/**
 * The environment's own step after a call that ran (`runs: after_each_call`, tau2-bench's
 * `sync_tools`): each such tool, with no arguments, on the database the call left. One whose
 * preconditions fail changes nothing, as tau2-bench logs a failed sync and goes on; one whose
 * behaviour was not imported makes the call an error of the project. A call that failed changed
 * nothing, so the state it leaves was synced after the call before.
 */
function afterEachCall(
  model: ProjectModel,
  start: Database,
  outcome: Extract<ToolOutcome, { ok: true }>,
  context: ToolRunContext,
): ToolOutcome {
  let db = outcome.db;
  for (const tool of model.tools) {
    if (tool.runs !== 'after_each_call') continue;
    const step = runOneTool(model, db, { tool: tool.name, args: {} }, context);
    if (step.ok) db = step.db;
    else if (step.notImported)
      return {
        ok: false,
        db: start,
        error: `The environment step ${step.error}`,
        notImported: true,
      };
  }
  return db === outcome.db ? outcome : { ...outcome, db, changes: diffDatabases(start, db, model) };
}

function runOneTool(
  model: ProjectModel,
  db: Database,
  call: ToolCall,
  context: ToolRunContext,
): ToolOutcome {
  const tool = model.tools.find((t) => t.name === call.tool);
  if (!tool) {
    const names = model.tools.map((t) => t.name);
    const guess = closest(call.tool, names);
    return failed(
      db,
      `There is no tool named "${call.tool}".${guess ? ` Did you mean "${guess}"?` : ''} The tools are: ${names.join(', ') || 'none'}.`,
    );
  }
  if (tool.notImported !== undefined)
    return {
      ok: false,
      db,
      error: `Tool "${tool.name}" was not imported: ${tool.notImported}`,
      notImported: true,
    };
  const given: unknown = call.args;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return failed(db, `The arguments of "${tool.name}" must be a JSON object.`);
  }
  const args = withDefaults(tool.parameters, given as Record<string, unknown>);
  const wrong = argumentErrors(tool, args);
  if (wrong.length > 0) {
    return failed(
      db,
      `The arguments of "${tool.name}" do not fit its parameters: ${wrong.join('; ')}.`,
    );
  }
  try {
    const typed = typedArgs(tool.parameters, args);
    // Preconditions, effects and `returns` of one call share one step budget (celMeter.ts).
    return withCelBudget(
      () => execute(model, tool, typed, db, new Date(context.now), context.resultLimit),
      'tool-call',
      TOOL_CALL_STEP_BUDGET,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failed(db, `"${tool.name}" failed and changed nothing: ${message}`);
  }
}

function failed(db: Database, error: string): ToolOutcome {
  return { ok: false, db, error };
}

/** Runs the effects of a call whose arguments passed; throws on the first failure. */
function execute(
  model: ProjectModel,
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  start: Database,
  now: Date,
  limit = TOOL_RESULT_LIMIT,
): ToolOutcome {
  let db = start;
  // Per row, what it was before the call and what it is now: the call's net changes.
  const touched = new Map<string, { table: string; key: string; before?: Row; after?: Row }>();
  const selected: { table: string; rows: readonly Row[] }[] = [];
  const summary: { inserted?: Row[]; updated?: number; deleted?: number } = {};

  // Per table, the row this call inserted into it last: `inserted.orders.id` in its expressions.
  let inserted: Readonly<Record<string, Row>> = {};
  const evaluate = (source: string, label: string, row?: Row, scope: Scope = {}): unknown => {
    const compiled = compileCel(source);
    if (isCelProblem(compiled)) {
      throw new CallFailure(`${label} is not valid CEL (${compiled.message}).`);
    }
    try {
      // The names the format defines win over an item variable that repeats one (check reports it).
      return compiled.run({ ...scope, args, db, now, inserted, ...(row !== undefined && { row }) });
    } catch (error) {
      const missing = error instanceof CelRunError ? error.missing : undefined;
      if (missing !== undefined && /^\w+$/.test(missing)) {
        throw new CallFailure(`${label} needs "${missing}", which is missing.`);
      }
      // cel-js words an index out of bounds as "No such key: index out of bounds, ...".
      const message = missing ?? (error instanceof Error ? error.message : String(error));
      throw new CallFailure(`${label} could not be evaluated ${aside(message)}.`);
    }
  };
  const condition = (source: string, label: string, row?: Row, scope?: Scope): boolean => {
    const value = evaluate(source, label, row, scope);
    if (typeof value === 'boolean') return value;
    throw new CallFailure(`${label} gave ${JSON.stringify(toPlain(value))}, not true or false.`);
  };
  const matches = (effect: Effect, row: Row, label: string, scope: Scope): boolean =>
    effect.where === undefined || condition(effect.where, `${label}, its "where"`, row, scope);
  const touch = (table: string, key: string, before: Row | undefined, after: Row | undefined) => {
    const id = `${table}\u0000${key}`;
    const first = touched.has(id) ? touched.get(id)?.before : before;
    touched.set(id, { table, key, ...(first && { before: first }), ...(after && { after }) });
  };
  const replace = (table: Table, rows: readonly Row[]) => {
    db = { ...db, [table.name]: rows };
  };

  const apply = (effect: Effect, table: Table, label: string, scope: Scope): void => {
    const rows = Object.hasOwn(db, table.name) ? (db[table.name] ?? []) : [];
    switch (effect.op) {
      case 'select':
        selected.push({
          table: table.name,
          rows: rows.filter((r) => matches(effect, r, label, scope)),
        });
        return;
      case 'insert': {
        const row = newRow(table, effect, rows, (source, name) =>
          evaluate(source, `${label}, the value of "${name}"`, undefined, scope),
        );
        const problems = validateRow(table, row);
        if (problems.length > 0) {
          throw new CallFailure(
            `${label} would add a row that does not fit: ${problems.join(' ')}`,
          );
        }
        const key = rowKey(row, table.key);
        if (rows.some((r) => rowKey(r, table.key) === key)) {
          throw new CallFailure(
            `${label}: "${table.name}" already has a row with ${table.key} ${key}.`,
          );
        }
        touch(table.name, key, undefined, row);
        (summary.inserted ??= []).push(row);
        inserted = { ...inserted, [table.name]: row };
        replace(table, [...rows, row]);
        return;
      }
      case 'update': {
        summary.updated ??= 0;
        const next = rows.map((row) => {
          if (!matches(effect, row, label, scope)) return row;
          summary.updated = (summary.updated ?? 0) + 1;
          const patch = Object.entries(effect.columns).map(([name, source]): [string, unknown] => [
            name,
            toPlain(evaluate(source, `${label}, the new "${name}"`, row, scope)),
          ]);
          const after: Row = { ...row, ...Object.fromEntries(patch) };
          const key = rowKey(row, table.key);
          if (rowKey(after, table.key) !== key) {
            throw new CallFailure(`${label} may not change the key "${table.key}" of row ${key}.`);
          }
          const problems = validateRow(table, after);
          if (problems.length > 0) {
            throw new CallFailure(
              `${label} would leave row ${key} not fitting: ${problems.join(' ')}`,
            );
          }
          if (sameRow(row, after)) return row;
          touch(table.name, key, row, after);
          return after;
        });
        if (next.some((row, j) => row !== rows[j])) replace(table, next);
        return;
      }
      case 'delete': {
        const kept = rows.filter((row) => {
          if (!matches(effect, row, label, scope)) return true;
          touch(table.name, rowKey(row, table.key), row, undefined);
          return false;
        });
        summary.deleted = (summary.deleted ?? 0) + rows.length - kept.length;
        if (kept.length !== rows.length) replace(table, kept);
        return;
      }
    }
  };

  const checked: string[] = [];
  for (const [i, pre] of (tool.requires ?? []).entries()) {
    const label = `precondition ${i + 1}`;
    const holds = evaluate(pre.condition, label);
    if (pre.policy !== undefined && !checked.includes(pre.policy)) checked.push(pre.policy);
    if (holds === false && pre.notImported)
      return {
        ok: false,
        db: start,
        error: `Tool "${tool.name}" was not imported on this path: ${pre.error}`,
        notImported: true,
      };
    if (holds === false && pre.policy !== undefined) {
      const refusedBy = {
        precondition: i,
        policy: pre.policy,
        ...(pre.attempt === 'noted' && { noted: true as const }),
      };
      return { ok: false, db: start, error: pre.error, refusedBy, checked };
    }
    if (holds === false) return failed(start, pre.error);
    if (holds !== true)
      throw new CallFailure(`${label} gave ${JSON.stringify(toPlain(holds))}, not true or false.`);
  }

  tool.effects.forEach((effect, i) => {
    const label = `effect ${i + 1} (${effect.op} ${effect.table})`;
    const table = model.tables.find((t) => t.name === effect.table);
    if (!table) throw new CallFailure(`${label} names a table that does not exist.`);
    for (const run of effectRuns(effect, label, (source, what) => evaluate(source, what))) {
      const skipped =
        effect.when !== undefined &&
        !condition(effect.when, `${run.label}, its "when"`, undefined, run.scope);
      if (!skipped) apply(effect, table, run.label, run.scope);
    }
  });

  const value =
    tool.returns === undefined
      ? defaultResult(selected, summary)
      : toPlain(evaluate(tool.returns, 'its "returns"'));
  return {
    ok: true,
    db,
    changes: netChanges(touched.values()),
    result: resultText(value, limit),
    ...(checked.length > 0 && { checked }),
  };
}

/**
 * A row to insert: the effect's values, a fresh value for `generated:` columns it leaves out
 * (from the table's current `rows`), null for nullable ones, in column order.
 */
function newRow(
  table: Table,
  effect: Effect,
  rows: readonly Row[],
  evaluate: (source: string, column: string) => unknown,
): Row {
  const row: Record<string, unknown> = {};
  for (const column of table.columns) {
    if (Object.hasOwn(effect.columns, column.name)) {
      row[column.name] = toPlain(evaluate(effect.columns[column.name] ?? '', column.name));
    } else if (column.generated !== undefined) {
      row[column.name] = generatedValue(column, rows);
    } else if (column.nullable) row[column.name] = null;
  }
  // Values for columns the table lacks are kept so that validateRow names them.
  for (const [name, source] of Object.entries(effect.columns)) {
    if (!Object.hasOwn(row, name)) row[name] = toPlain(evaluate(source, name));
  }
  return row;
}

/** Variables an effect's expressions see besides the format's own: its `for_each` item. */
type Scope = Readonly<Record<string, unknown>>;

/**
 * The runs of one effect: once with no item, or once per item of its `for_each` list, each
 * labelled by its item and seeing it under the effect's `as` name (`item` by default).
 */
function effectRuns(
  effect: Effect,
  label: string,
  evaluate: (source: string, label: string) => unknown,
): { label: string; scope: Scope }[] {
  if (effect.forEach === undefined) return [{ label, scope: {} }];
  const list = evaluate(effect.forEach, `${label}, its "for_each"`);
  if (!Array.isArray(list)) {
    throw new CallFailure(
      `${label}, its "for_each" gave ${JSON.stringify(toPlain(list))}, not a list.`,
    );
  }
  const name = effect.as ?? 'item';
  return list.map((item: unknown, k) => ({
    label: `${label}, item ${k + 1}`,
    scope: { [name]: item },
  }));
}

/** Net changes per row, in the order the rows were first touched. */
function netChanges(
  touched: Iterable<{ table: string; key: string; before?: Row; after?: Row }>,
): RowChange[] {
  const changes: RowChange[] = [];
  for (const { table, key, before, after } of touched) {
    if (before === undefined && after !== undefined) {
      changes.push({ table, key, kind: 'insert', after });
    } else if (before !== undefined && after === undefined) {
      changes.push({ table, key, kind: 'delete', before });
    } else if (before !== undefined && after !== undefined && !sameRow(before, after)) {
      changes.push({ table, key, kind: 'update', before, after });
    }
  }
  return changes;
}

/**
 * What a tool without `returns` shows. One select: its rows. Several (a look-up that gathers a
 * profile, its payments and its bookings): the rows of each by table, since the last alone would
 * hide the others. Only writes: what they did.
 */
function defaultResult(
  selected: readonly { table: string; rows: readonly Row[] }[],
  summary: { inserted?: Row[]; updated?: number; deleted?: number },
): unknown {
  if (selected.length === 1) return selected[0]?.rows;
  if (selected.length > 1) return Object.fromEntries(selected.map((s) => [s.table, s.rows]));
  const { inserted, updated, deleted } = summary;
  if (inserted === undefined && updated === undefined && deleted === undefined) return { ok: true };
  return {
    ...(inserted && { inserted: inserted.length === 1 ? inserted[0] : inserted }),
    ...(updated !== undefined && { updated }),
    ...(deleted !== undefined && { deleted }),
  };
}

/**
 * The JSON text of a result, at most `limit` characters. A list too long keeps its first items
 * and ends with a note of how many were left out (still valid JSON); anything else is cut with a note.
 */
export function resultText(value: unknown, limit: number = TOOL_RESULT_LIMIT): string {
  const text = JSON.stringify(toPlain(value));
  if (text.length <= limit) return text;
  if (Array.isArray(value)) {
    const parts = value.map((item) => JSON.stringify(toPlain(item)));
    const noteFor = (kept: number) =>
      JSON.stringify(
        `... ${parts.length - kept} more of ${parts.length} items left out: the result passed ${limit} characters. Ask for fewer.`,
      );
    let kept = 0;
    let used = 2 + noteFor(0).length;
    while (kept < parts.length && used + (parts[kept]?.length ?? 0) + 1 <= limit) {
      used += (parts[kept]?.length ?? 0) + 1;
      kept += 1;
    }
    return `[${[...parts.slice(0, kept), noteFor(kept)].join(',')}]`;
  }
  const note = ` ... [cut: the result was ${text.length} characters, over the limit of ${limit}]`;
  return text.slice(0, Math.max(0, limit - note.length)) + note;
}
