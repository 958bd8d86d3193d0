import type {
  DomainFiles,
  ImportNote,
  ImportedEnvCall,
  ImportedFunction,
  ImportedTable,
  ImportedTask,
  ImportedTurn,
  JsonValue,
} from './domain.ts';
import { readPythonModule } from './python/module.ts';
import { readStatements, textOf } from './python/statements.ts';
import { tableFromCollection } from './tables.ts';

/*
 * The user's side of a tau2-bench domain (dual control): the user's own state and the functions
 * of `user_tools.py` that are not tools (setters that initialization actions call, assertion
 * functions that `env_assertions` name). Python is read as text, never run.
 */

/** The file names of the user's side. */
export const TAU2_USER_FILES = { userDb: 'user_db.json', userTools: 'user_tools.py' } as const;

const TOOL_DECORATOR = /^is_tool\s*\(/;

/**
 * Reads the user's state (`user_db.json`: each entry an object of rows by id, or one object,
 * which becomes a one-row table keyed `id`) and the non-tool functions of `user_tools.py`.
 * Never throws: what it cannot read is a note.
 */
export function readUserSide(
  files: DomainFiles,
  notes: ImportNote[],
): { tables: ImportedTable[]; functions: ImportedFunction[] } {
  return { tables: userTables(files, notes), functions: userFunctions(files) };
}

function userTables(files: DomainFiles, notes: ImportNote[]): ImportedTable[] {
  const file = TAU2_USER_FILES.userDb;
  const text = files.get(file);
  if (text === undefined) return [];
  let data: JsonValue;
  try {
    data = JSON.parse(text) as JsonValue;
  } catch (error) {
    notes.push({
      item: file,
      message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}); the user's state is left out.`,
      place: { file },
    });
    return [];
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    notes.push({
      item: file,
      message: 'The user’s state is not an object of tables.',
      place: { file },
    });
    return [];
  }
  const tables: ImportedTable[] = [];
  for (const [name, value] of Object.entries(data)) {
    const single = isSingle(value);
    const read = tableFromCollection(
      name,
      single ? { [name]: { id: name, ...single } } : value,
      file,
    );
    notes.push(...read.notes);
    if (read.table) tables.push(read.table);
  }
  return tables;
}

/** An object none of whose values is an object: one record (a phone), not a collection of rows. */
function isSingle(value: JsonValue): Record<string, JsonValue> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Readonly<Record<string, JsonValue>>;
  return Object.values(record).some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
    ? undefined
    : { ...record };
}

function userFunctions(files: DomainFiles): ImportedFunction[] {
  const file = TAU2_USER_FILES.userTools;
  const source = files.get(file);
  return source === undefined ? [] : classFunctions(source, file);
}

/**
 * The methods of a toolkit's classes that are not tools (nor `__dunder__`), as source: setters,
 * assertion functions and helpers, each with its class's private helpers.
 */
export function classFunctions(source: string, file: string): ImportedFunction[] {
  const module = readPythonModule(source);
  return module.classes.flatMap((owner) => {
    const helpers = Object.fromEntries(
      owner.methods
        .filter((m) => m.name.startsWith('_') && !m.name.startsWith('__'))
        .map((m) => [m.name, m.text]),
    );
    return owner.methods
      .filter((m) => !m.decorators.some((d) => TOOL_DECORATOR.test(d)) && !m.name.startsWith('__'))
      .map((m) => ({
        name: m.name,
        params: m.params
          .filter((p) => p.name !== 'self' && p.kind === 'plain')
          .map((p) => ({ name: p.name, ...(p.default !== undefined && { default: p.default }) })),
        statements: bodyStatements(m.text),
        text: m.text,
        helpers,
        place: { file, line: m.line },
      }));
  });
}

/**
 * The statements of a `def`'s body as one-line texts, its docstring left out; a statement that
 * opens a block (`if`, `for`) is kept with a trailing `:` so that no translation mistakes it for
 * a plain statement.
 */
export function bodyStatements(defText: string): string[] {
  const { statements } = readStatements(defText);
  const body = statements[0]?.body ?? [];
  return body.flatMap((statement, i) => {
    const only = statement.tokens[0];
    if (i === 0 && statement.tokens.length === 1 && only?.type === 'string') return [];
    return [textOf(defText, statement.tokens).replace(/\s*\n\s*/g, ' ')];
  });
}

type Obj = Readonly<Record<string, JsonValue>>;
const isObj = (v: JsonValue | undefined): v is Obj =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
const items = (v: JsonValue | undefined): readonly JsonValue[] =>
  Array.isArray(v) ? (v as readonly JsonValue[]) : [];

/** One `EnvFunctionCall` (or `EnvAssertion`, with `assert_value`), when it names a function. */
function envCall(raw: JsonValue, assertion: boolean): ImportedEnvCall | undefined {
  if (!isObj(raw) || typeof raw.func_name !== 'string') return undefined;
  return {
    env: raw.env_type === 'user' ? 'user' : 'assistant',
    func: raw.func_name,
    arguments: isObj(raw.arguments) ? raw.arguments : {},
    ...(assertion && { assertValue: raw.assert_value !== false }),
  };
}

/**
 * The dual-control parts of a tau2 task: `initial_state.initialization_actions` and
 * `message_history`, and `evaluation_criteria.env_assertions`; `rest` is what else the initial
 * state holds (`initialization_data`), for the extras.
 */
export function dualControlOfTask(raw: Obj): {
  initialization: ImportedEnvCall[];
  messageHistory: ImportedTurn[];
  envAssertions: ImportedEnvCall[];
  /** `initialization_data`, when it is the agent's and the user's data as objects. */
  initialData: ImportedTask['initialData'];
  rest: JsonValue | undefined;
  /** The initialization actions and environment assertions that name no function, as given. */
  nameless: JsonValue[];
} {
  const state = isObj(raw.initial_state) ? raw.initial_state : undefined;
  const criteria = isObj(raw.evaluation_criteria) ? raw.evaluation_criteria : {};
  const calls = (v: JsonValue | undefined, assertion: boolean) =>
    items(v).flatMap((c) => envCall(c, assertion) ?? []);
  const messageHistory = items(state?.message_history).flatMap((m): ImportedTurn[] =>
    isObj(m) && typeof m.role === 'string'
      ? [
          {
            role: m.role,
            content: typeof m.content === 'string' ? m.content : '',
            ...(items(m.tool_calls).length > 0 && {
              toolCalls: true,
              calls: items(m.tool_calls).flatMap((c) =>
                isObj(c) && typeof c.name === 'string'
                  ? [{ name: c.name, arguments: isObj(c.arguments) ? c.arguments : {} }]
                  : [],
              ),
            }),
          },
        ]
      : [],
  );
  const data = isObj(state?.initialization_data) ? state.initialization_data : undefined;
  const sides = data && Object.keys(data).every((k) => k === 'agent_data' || k === 'user_data');
  const initialData =
    data && sides && Object.values(data).every((v) => v === null || isObj(v))
      ? {
          ...(isObj(data.agent_data) && { agent: data.agent_data }),
          ...(isObj(data.user_data) && { user: data.user_data }),
        }
      : undefined;
  let rest: JsonValue | undefined;
  if (state) {
    const {
      initialization_actions: _a,
      message_history: _m,
      initialization_data,
      ...others
    } = state;
    rest =
      initialData || initialization_data === undefined
        ? others
        : { ...others, initialization_data };
  } else rest = raw.initial_state;
  const nameless = [state?.initialization_actions, criteria.env_assertions]
    .flatMap((v) => items(v))
    .filter((c) => envCall(c, false) === undefined);
  return {
    nameless,
    initialization: calls(state?.initialization_actions, false),
    messageHistory,
    envAssertions: calls(criteria.env_assertions, true),
    initialData,
    rest,
  };
}
