import type {
  DomainFiles,
  ImportNote,
  ImportedEnvCall,
  ImportedFunction,
  ImportedTable,
  ImportedTask,
  ImportedTurn,
  JsonSchema,
  JsonValue,
} from './domain.ts';
import { readAnnotation } from './python/annotation.ts';
import { instanceOf } from './python/instances.ts';
import type { PyClass } from './python/module.ts';
import { readPythonModule } from './python/module.ts';
import type { TypeScope } from './python/schemaOf.ts';
import { fieldsOf, schemaOf } from './python/schemaOf.ts';
import { readStatements, textOf } from './python/statements.ts';
import { tableFromCollection, typedByModel } from './tables.ts';
import { readTomlData } from './toml.ts';

/*
 * The user's side of a tau2-bench domain (dual control): the user's own state and the functions
 * of `user_tools.py` that are not tools (setters that initialization actions call, assertion
 * functions that `env_assertions` name). Python is read as text, never run.
 */

/** The file names of the user's side. */
export const TAU2_USER_FILES = {
  userDb: 'user_db.json',
  userDbToml: 'user_db.toml',
  userTools: 'user_tools.py',
  userDataModel: 'user_data_model.py',
} as const;

const TOOL_DECORATOR = /^is_tool\s*\(/;

/**
 * Reads the user's state (`user_db.json`, else `user_db.toml`) and the non-tool functions of
 * `user_tools.py`. With the user's data model (`user_data_model.py`, its `DB` class in `scope`)
 * each field of the state is read as pydantic reads it: a `Dict`/`List` field is a table of rows,
 * any other model field one record (a phone) in a one-row table keyed `id`, its fields the file
 * leaves out (and fields the file has no entry for at all) filled with the model's defaults.
 * Without one, an entry that is an object of plain values is one record. Never throws: what it
 * cannot read is a note.
 */
export function readUserSide(
  files: DomainFiles,
  notes: ImportNote[],
  model?: { readonly db: PyClass; readonly scope: TypeScope },
): { tables: ImportedTable[]; functions: ImportedFunction[] } {
  return { tables: userTables(files, notes, model), functions: userFunctions(files) };
}

/** The user's state as data, from user_db.json or else user_db.toml. */
function userData(
  files: DomainFiles,
  notes: ImportNote[],
): { data: JsonValue; file: string } | undefined {
  const json = files.get(TAU2_USER_FILES.userDb);
  if (json !== undefined) {
    const file = TAU2_USER_FILES.userDb;
    try {
      return { data: JSON.parse(json) as JsonValue, file };
    } catch (error) {
      notes.push({
        item: file,
        message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}); the user's state is left out.`,
        place: { file },
      });
      return undefined;
    }
  }
  const toml = files.get(TAU2_USER_FILES.userDbToml);
  if (toml === undefined) return undefined;
  const read = readTomlData(toml, TAU2_USER_FILES.userDbToml);
  notes.push(...read.notes);
  return read.data === undefined
    ? undefined
    : { data: read.data, file: TAU2_USER_FILES.userDbToml };
}

function userTables(
  files: DomainFiles,
  notes: ImportNote[],
  model: { readonly db: PyClass; readonly scope: TypeScope } | undefined,
): ImportedTable[] {
  const read = userData(files, notes);
  if (read === undefined && model === undefined) return [];
  const data: JsonValue = read === undefined ? {} : read.data;
  const file = read?.file ?? TAU2_USER_FILES.userDataModel;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    notes.push({
      item: file,
      message: 'The user’s state is not an object of tables.',
      place: { file },
    });
    return [];
  }
  const entries = new Map(Object.entries(data));
  const tables: ImportedTable[] = [];
  const add = (name: string, collection: JsonValue, schema?: JsonSchema, record = false) => {
    const table = tableFromCollection(name, collection, file);
    notes.push(...table.notes);
    if (!table.table) return;
    const typed = schema ? typedByModel(table.table, schema, notes) : table.table;
    tables.push(record ? { ...typed, record: true } : typed);
  };
  if (model !== undefined) {
    const { db, scope } = model;
    for (const field of fieldsOf(db, scope)) {
      const type = readAnnotation(field.annotation);
      const given = entries.get(field.name);
      entries.delete(field.name);
      const rows = type.kind === 'name' && /^(Dict|dict|List|list)$/.test(type.name);
      const made = instanceOf(given, type, scope);
      if ('why' in made) {
        notes.push({
          item: `${TAU2_USER_FILES.userDataModel}, ${db.name}.${field.name}`,
          message: `The user's ${field.name} could not be made: ${made.why}; left out.`,
          place: { file: TAU2_USER_FILES.userDataModel, line: field.line },
        });
        continue;
      }
      const schema = schemaOf(type, scope, new Set());
      const row = rows ? (schema.additionalProperties ?? schema.items) : schema;
      const rowSchema = row && typeof row === 'object' ? (row as JsonSchema) : undefined;
      if (rows) add(field.name, made.value, rowSchema);
      else if (isObj(made.value))
        add(field.name, { [field.name]: { id: field.name, ...made.value } }, rowSchema, true);
    }
  }
  for (const [name, value] of entries) {
    const single = isSingle(value);
    if (single) add(name, { [name]: { id: name, ...single } }, undefined, true);
    else add(name, value);
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
      owner.methods.filter((m) => !m.name.startsWith('__')).map((m) => [m.name, m.text]),
    );
    return owner.methods
      .filter((m) => !m.decorators.some((d) => TOOL_DECORATOR.test(d)) && !m.name.startsWith('__'))
      .map((m) => ({
        name: m.name,
        params: m.params
          .filter((p) => p.name !== 'self' && p.kind === 'plain')
          .map((p) => ({
            name: p.name,
            ...(p.default !== undefined && { default: p.default }),
            ...(p.annotation !== undefined && { annotation: p.annotation }),
          })),
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
