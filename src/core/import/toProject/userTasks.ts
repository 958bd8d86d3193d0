import { compileCel, isCelProblem } from '../../cel.ts';
import { celSelect } from '../../celVariables.ts';
import type {
  ImportedEnvCall,
  ImportedFunction,
  ImportedTask,
  JsonValue,
  PyKnown,
} from '../domain.ts';
import { isNotLiteral, literalOfText } from '../python/literal.ts';
import type { CarryNote } from './carry.ts';
import type { TablePlan } from './database.ts';
import { type StartingRows, mergeInitialData } from './initialData.ts';
import { programOf } from './pyTool.ts';
import type { SetupPlan } from './setup.ts';
import type { UserSidePlan } from './userSide.ts';
import { celOf } from './userSide.ts';

/*
 * A task's dual-control parts as scenario fields (docs/format.md, "Dual control"): its
 * initialization actions, message history and environment assertions. Each part that does not
 * carry is noted by task.
 */

/** What a scenario gains from its task's dual-control parts. */
export interface UserTaskParts {
  readonly initialization?: Array<{ tool: string; args: Record<string, JsonValue> }>;
  readonly message_history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  readonly rows?: Record<string, Array<Record<string, JsonValue>>>;
  readonly user_assertions?: string[];
  /** Environment assertions on the agent's database, as database assertions. */
  readonly database?: string[];
  /** What the task expects that could not be carried: `not_checked`, never held. */
  readonly not_checked?: string[];
}

/** The agent's side, for assertions on its database: its tables and its non-tool functions. */
export interface AgentSide {
  readonly tables: readonly TablePlan[];
  readonly functions: readonly ImportedFunction[];
  /** What the function reader knows of the domain's Python (enums, model defaults). */
  readonly known?: PyKnown;
  /** The setup tools made of the functions initialization actions call, and their names. */
  readonly setup?: SetupPlan;
}

/**
 * The scenario fields of one task: an initialization action that calls a tool of its side
 * becomes a call; one that calls a setter of the user's state (a function of `user_tools.py`
 * whose body sets fields of a one-record table to literals or its arguments) becomes the
 * scenario's starting row for that table (applied before the calls); history turns of the user
 * and the agent carry as they are; an environment assertion on the user's side whose function
 * returns a comparison of the user's fields becomes a user assertion (negated for
 * `assert_value: false`).
 */
export function userTaskParts(
  task: ImportedTask,
  plan: UserSidePlan,
  agentNames: ReadonlyMap<string, string>,
  functions: readonly ImportedFunction[],
  notes: CarryNote[],
  agent: AgentSide = { tables: [], functions: [] },
): UserTaskParts {
  const item = `task ${task.id}`;
  const note = (message: string) => notes.push({ file: 'scenarios.yaml', item, message });
  const notChecked: string[] = [];
  const byName = new Map(functions.map((f) => [f.name, f]));
  const records = new Map(
    plan.tables
      .filter((t) => t.key === 'id' && t.rows.length === 1 && t.rows[0]?.id === t.source)
      .map((t) => [t.source, t]),
  );

  const initialization: Array<{ tool: string; args: Record<string, JsonValue> }> = [];
  const rows: StartingRows = new Map();
  // tau2 merges the task's data first, then runs its initialization actions.
  for (const [side, data, tables] of [
    ['agent', task.initialData?.agent, agent.tables],
    ['user', task.initialData?.user, plan.tables],
  ] as const)
    if (data)
      for (const problem of mergeInitialData(data, tables, rows))
        note(`initialization_data (${side}) not carried in part: ${problem}.`);
  for (const call of task.initialization ?? []) {
    const tool = (call.env === 'user' ? plan.names : agentNames).get(call.func);
    if (tool !== undefined) {
      initialization.push({ tool, args: { ...call.arguments } });
      continue;
    }
    // A function that is not a tool, read as a setup tool of its side.
    const setupName = (call.env === 'user' ? agent.setup?.user : agent.setup?.agent)?.get(
      call.func,
    );
    const setupTool = agent.setup?.entries.find((e) => e.name === setupName);
    if (setupTool !== undefined && setupTool.not_imported === undefined) {
      initialization.push({ tool: setupTool.name, args: { ...call.arguments } });
      continue;
    }
    const why =
      setupTool?.not_imported?.replace(/\.$/, '') ??
      (byName.has(call.func) || agent.functions.some((f) => f.name === call.func)
        ? 'its body could not be read'
        : 'no such tool or function');
    const message = `Initialization action ${call.func}(${JSON.stringify(call.arguments)}) not carried: ${why}.`;
    note(message);
    notChecked.push(`the dialogue starts without its setup: ${message}`);
  }

  // The history's tool calls happened before the dialogue: they run as initialization calls (as
  // tau2-bench makes them again to set the state), and their results need no turn of their own.
  const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  let callsCarried = true;
  for (const [i, turn] of (task.messageHistory ?? []).entries()) {
    const speaker = turn.role === 'user' || turn.role === 'assistant';
    const calls = turn.calls ?? [];
    const uncarried = calls.filter((call) => {
      const tool = (turn.role === 'user' ? plan.names : agentNames).get(call.name);
      if (tool === undefined || !speaker) return true;
      initialization.push({ tool, args: { ...call.arguments } });
      return false;
    });
    if (uncarried.length > 0 || calls.length < (turn.toolCalls === true ? 1 : 0)) {
      callsCarried = false;
      note(
        `Message history turn ${i + 1} (${turn.role}): its tool call${uncarried.length === 1 ? '' : 's'} ${uncarried.map((c) => c.name).join(', ') || '(unnamed)'} not carried: no tool of that name on the ${turn.role === 'user' ? 'user' : 'agent'}'s side.`,
      );
    }
    if (speaker && turn.content.trim() !== '')
      history.push({ role: turn.role, content: turn.content });
    else if (turn.role === 'tool' && callsCarried) continue;
    else if (!(speaker && calls.length > 0))
      note(
        `Message history turn ${i + 1} (${turn.role}) not carried: a history turn is words of the user or the agent.`,
      );
  }

  const assertions: string[] = [];
  const database: string[] = [];
  const agentByName = new Map(agent.functions.map((f) => [f.name, f]));
  for (const assertion of task.envAssertions ?? []) {
    const user = assertion.env === 'user';
    const fn = (user ? byName : agentByName).get(assertion.func);
    const simple = user ? assertionCel(assertion, fn, records) : undefined;
    // Else the body read whole, as a read tool's: its failures and what it returns.
    const cel = simple?.ok
      ? simple
      : fn
        ? readAssertion(assertion, fn, user ? plan.tables : agent.tables, agent.known)
        : { ok: false as const, why: `no such function in ${user ? 'user_tools.py' : 'tools.py'}` };
    if (cel.ok) (user ? assertions : database).push(cel.cel);
    else {
      const message = `Environment assertion ${assertion.func}(${JSON.stringify(assertion.arguments)}) not carried: ${cel.why}.`;
      note(message);
      notChecked.push(message);
    }
  }

  return {
    ...(initialization.length > 0 && { initialization }),
    ...(history.length > 0 && { message_history: history }),
    ...(rows.size > 0 && {
      rows: Object.fromEntries([...rows].map(([table, byKey]) => [table, [...byKey.values()]])),
    }),
    ...(assertions.length > 0 && { user_assertions: assertions }),
    ...(database.length > 0 && { database }),
    ...(notChecked.length > 0 && { not_checked: notChecked }),
  };
}

/**
 * An environment assertion read through the tool reader (`programOf`): the function's failures
 * must not happen (tau2-bench counts an assertion that raises as failed) and what it returns must
 * equal `assert_value`; the call's arguments are written in as literals.
 */
function readAssertion(
  assertion: ImportedEnvCall,
  fn: ImportedFunction,
  tables: readonly TablePlan[],
  known: PyKnown = {},
): { ok: true; cel: string } | { ok: false; why: string } {
  if (fn.text === undefined) return { ok: false, why: 'its source was not kept' };
  // Each argument's schema is its given value's type (a number by its annotation: Python's
  // float takes 2 as 2.0): they are written in as literals.
  const floats = new Set(
    fn.params.filter((p) => /\bfloat\b/.test(p.annotation ?? '')).map((p) => p.name),
  );
  const typeOf = (name: string, v: JsonValue | undefined) =>
    v === null || v === undefined
      ? {}
      : typeof v === 'string'
        ? { type: 'string' }
        : typeof v === 'boolean'
          ? { type: 'boolean' }
          : typeof v === 'number'
            ? { type: floats.has(name) || !Number.isInteger(v) ? 'number' : 'integer' }
            : {};
  const properties = Object.fromEntries(
    fn.params.map((p) => [p.name, typeOf(p.name, valueOf(fn, p.name, assertion))]),
  );
  const program = programOf(fn.text, fn.helpers ?? {}, { properties }, tables, fn.place.line ?? 1, {
    returns: true,
    known,
  });
  if ('reason' in program) return { ok: false, why: program.reason };
  if (program.effects.length > 0) return { ok: false, why: 'it changes the database' };
  // A path of it the reader could not follow would read as the assertion failing: not carried.
  const unfollowed = program.requires.find((r) => r.not_imported === true);
  if (unfollowed !== undefined) return { ok: false, why: unfollowed.error };
  if (program.returns === undefined || program.returns === 'null')
    return { ok: false, why: 'it returns nothing' };
  const values: Record<string, string> = {};
  for (const p of fn.params) {
    const value = valueOf(fn, p.name, assertion);
    if (value === undefined) return { ok: false, why: `no value for its argument ${p.name}` };
    values[p.name] =
      typeof value === 'number' && Number.isInteger(value) && floats.has(p.name)
        ? `${value}.0`
        : JSON.stringify(value);
  }
  const literal = (cel: string) =>
    cel.replace(
      /\bargs(?:\.([A-Za-z_]\w*)|\["([^"]+)"\])/g,
      (whole, dotted: string | undefined, quoted: string | undefined) =>
        values[dotted ?? quoted ?? ''] ?? whole,
    );
  const returned = literal(program.returns);
  if (/\bargs\b/.test(returned)) return { ok: false, why: 'it reads an argument it was not given' };
  const held = assertion.assertValue === false ? `!(${returned})` : `(${returned})`;
  const cel = [...program.requires.map((r) => `(${literal(r.condition)})`), held].join(' && ');
  return isCelProblem(compileCel(cel))
    ? { ok: false, why: 'it does not read as CEL' }
    : { ok: true, cel };
}

type Records = ReadonlyMap<
  string,
  { readonly name: string; readonly rows: ReadonlyArray<Record<string, JsonValue>> }
>;

/** The value of a parameter in a call: its argument, else its default when that is a literal. */
function valueOf(fn: ImportedFunction, name: string, call: ImportedEnvCall): JsonValue | undefined {
  if (Object.hasOwn(call.arguments, name)) return call.arguments[name];
  const param = fn.params.find((p) => p.name === name);
  if (param?.default === undefined) return undefined;
  const value = literalOfText(param.default);
  return isNotLiteral(value) ? undefined : value;
}

/** An environment assertion as a user assertion, or why not. */
function assertionCel(
  assertion: ImportedEnvCall,
  fn: ImportedFunction | undefined,
  records: Records,
): { ok: true; cel: string } | { ok: false; why: string } {
  if (!fn) return { ok: false, why: 'no such function in user_tools.py' };
  const [only, ...more] = fn.statements;
  const returned =
    only !== undefined && more.length === 0 ? /^return\s+(.+)$/.exec(only)?.[1] : undefined;
  if (returned === undefined) return { ok: false, why: 'its body is more than one `return`' };
  let table: string | undefined;
  const cel = celOf(returned, {
    name: (n) => {
      const value = fn.params.some((p) => p.name === n) ? valueOf(fn, n, assertion) : undefined;
      return value === undefined ? undefined : JSON.stringify(value);
    },
    field: (t, f) => {
      if (!records.has(t) || (table !== undefined && table !== t)) return undefined;
      table = t;
      return celSelect('r', f);
    },
  });
  const record = table === undefined ? undefined : records.get(table);
  if (cel === undefined || !record)
    return { ok: false, why: `"${returned}" is not a comparison of the user's fields` };
  const exists = `db.${record.name}.exists(r, ${cel})`;
  return { ok: true, cel: assertion.assertValue === false ? `!${exists}` : exists };
}
