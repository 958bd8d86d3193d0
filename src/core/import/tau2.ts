import type {
  DomainFiles,
  ImportNote,
  ImportedDomain,
  ImportedTable,
  ImportedTask,
  JsonSchema,
  JsonValue,
  PyEnums,
} from './domain.ts';
import { readAnnotation } from './python/annotation.ts';
import type { PyModule } from './python/module.ts';
import { modelDefaults } from './python/instances.ts';
import { inlineDatabaseProperties, readPythonModule } from './python/module.ts';
import type { TypeScope } from './python/schemaOf.ts';
import { enumValues, schemaOf, scopeOf } from './python/schemaOf.ts';
import { sliceTables } from './slice.ts';
import { tableFromCollection, typedByModel } from './tables.ts';
import { readTomlData } from './toml.ts';
import { tau2Tasks } from './tau2Tasks.ts';
import { tau2Tools } from './tau2Tools.ts';
import { TAU2_USER_FILES, classFunctions, readUserSide } from './tau2User.ts';

/** The names under which a tau2 domain's files are passed in `DomainFiles`. */
export const TAU2_FILES = {
  policy: 'policy.md',
  tasks: 'tasks.json',
  dbJson: 'db.json',
  dbToml: 'db.toml',
  tools: 'tools.py',
  dataModel: 'data_model.py',
  userTools: 'user_tools.py',
  environment: 'environment.py',
  utils: 'utils.py',
} as const;

/** The prefix of a policy document's name among a tau2 domain's files (`policy/<file>.md`). */
export const TAU2_POLICY_DOCUMENT = 'policy/';

/**
 * Reads a tau2-bench domain (policy.md, tasks.json, db.json or db.toml, tools.py, data_model.py) into an
 * ImportedDomain. Python is parsed, never run. Large tables are sliced to what the tasks touch
 * plus a sample (`slicing` sets the size past which a table is sliced). Never throws: each file it cannot read, in part or whole, is a note.
 */
export function readTau2Domain(
  name: string,
  given: DomainFiles,
  slicing: { readonly limit?: number | undefined; readonly sample?: number | undefined } = {},
): ImportedDomain {
  const notes: ImportNote[] = [];
  // A toolkit's properties onto the database (telecom's `self.device`) read as the path they return.
  const files = new Map(given);
  for (const file of [TAU2_FILES.tools, TAU2_FILES.userTools]) {
    const source = files.get(file);
    if (source !== undefined) files.set(file, inlineDatabaseProperties(source));
  }
  const main = files.get(TAU2_FILES.policy);
  if (main === undefined)
    notes.push({ item: TAU2_FILES.policy, message: 'Not found; agent.md is left empty.' });
  const policy = main === undefined ? undefined : withPolicyDocuments(main, files, notes);

  const modules: PyModule[] = [];
  for (const file of [TAU2_FILES.dataModel, TAU2_FILES.tools]) {
    const source = files.get(file);
    if (source === undefined) {
      notes.push({ item: file, message: 'Not found.' });
      continue;
    }
    const module = readPythonModule(source);
    for (const p of module.problems)
      notes.push({ item: file, message: p.message, place: { file, line: p.line } });
    modules.push(module);
  }
  const scope = scopeOf(modules);
  const toolsModule = files.has(TAU2_FILES.tools) ? modules[modules.length - 1] : undefined;
  const tools = toolsModule
    ? tau2Tools(toolsModule, scope, TAU2_FILES.tools)
    : { tools: [], functions: [], notes: [] };
  notes.push(...tools.notes);
  // The user's side reads its own data model (user_data_model.py) beside the agent's.
  const userModelSource = files.get(TAU2_USER_FILES.userDataModel);
  const userModel = userModelSource === undefined ? undefined : readPythonModule(userModelSource);
  const userScope = userModel ? scopeOf([...modules, userModel]) : scope;
  const userDb = userModel?.classes.find((c) => c.bases.some((b) => /(^|\.)DB$/.test(b)));
  const userSource = files.get(TAU2_FILES.userTools);
  const userTools =
    userSource === undefined
      ? undefined
      : tau2Tools(readPythonModule(userSource), userScope, TAU2_FILES.userTools);
  if (userTools) notes.push(...userTools.notes);
  const userSide = readUserSide(
    files,
    notes,
    userDb === undefined ? undefined : { db: userDb, scope: userScope },
  );
  const toolsSource = files.get(TAU2_FILES.tools);
  const agentFunctions =
    toolsSource === undefined ? [] : classFunctions(toolsSource, TAU2_FILES.tools);

  let tasks: ImportedTask[] = [];
  const tasksText = files.get(TAU2_FILES.tasks);
  if (tasksText === undefined)
    notes.push({ item: TAU2_FILES.tasks, message: 'Not found; no scenarios.' });
  else {
    const read = tau2Tasks(tasksText, TAU2_FILES.tasks);
    tasks = read.tasks;
    notes.push(...read.notes);
  }

  const db = readDatabase(files, scope, notes);
  const sliced = sliceTables(db, tasks, slicing);
  notes.push(...sliced.notes);
  return {
    name,
    source: 'tau2',
    policy: policy ?? '',
    ...(userTools ? { userTools: userTools.tools } : {}),
    ...(userSide.tables.length > 0 && { userTables: userSide.tables }),
    ...(userSide.functions.length > 0 && { userFunctions: userSide.functions }),
    ...(agentFunctions.length > 0 && { agentFunctions }),
    enums: enumsOf(userScope),
    functions: moduleFunctions(files),
    ...environmentOf(files),
    modelDefaults: modelDefaults(userScope),
    setupFunctions: { agent: tools.functions, user: userTools?.functions ?? [] },
    tools: tools.tools,
    tables: sliced.tables,
    tasks,
    notes,
  };
}

/**
 * The environment's `sync_tools` (environment.py), which tau2-bench runs after every tool call to
 * keep the user's state and the agent's database in step, with the methods of both toolkits.
 */
function environmentOf(files: DomainFiles): Pick<ImportedDomain, 'environment'> {
  const source = files.get(TAU2_FILES.environment);
  if (source === undefined) return {};
  const sync = readPythonModule(source)
    .classes.flatMap((c) => c.methods)
    .find((m) => m.name === 'sync_tools');
  if (sync === undefined) return {};
  const methods = (file: string) => {
    const text = files.get(file);
    if (text === undefined) return {};
    return Object.fromEntries(
      readPythonModule(text)
        .classes.flatMap((c) => c.methods)
        .filter((m) => !m.name.startsWith('__'))
        .map((m) => [m.name, m.text]),
    );
  };
  return {
    environment: {
      sync: { body: sync.text, place: { file: TAU2_FILES.environment, line: sync.line } },
      helpers: { agent: methods(TAU2_FILES.tools), user: methods(TAU2_FILES.userTools) },
    },
  };
}

/** The module-level functions of utils.py and the toolkits' files, as source, by name. */
function moduleFunctions(files: DomainFiles): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of [TAU2_FILES.utils, TAU2_FILES.tools, TAU2_FILES.userTools]) {
    const source = files.get(file);
    if (source === undefined) continue;
    for (const fn of readPythonModule(source).functions) out[fn.name] ??= fn.text;
  }
  return out;
}

/** The Enum classes in scope, each member's value (`ACTIVE = "Active"`). */
function enumsOf(scope: TypeScope): PyEnums {
  const out: Record<string, Record<string, string | number | boolean>> = {};
  for (const [name, c] of scope.classes) {
    const values = enumValues(c);
    if (values === undefined) continue;
    out[name] = Object.fromEntries(c.members.map((m, i) => [m.name, values[i] ?? m.name]));
  }
  return out;
}

/**
 * The domain's database as JSON, from db.json or else db.toml (tau2-bench domains ship either);
 * undefined, with a note, when neither is there or the one there does not parse.
 */
function databaseData(
  files: DomainFiles,
  notes: ImportNote[],
): { readonly data: JsonValue; readonly file: string } | undefined {
  const json = files.get(TAU2_FILES.dbJson);
  const toml = files.get(TAU2_FILES.dbToml);
  if (json !== undefined) {
    if (toml !== undefined)
      notes.push({
        item: TAU2_FILES.dbToml,
        message: 'Not read: the domain has a db.json too, and that is the one read.',
      });
    try {
      return { data: JSON.parse(json) as JsonValue, file: TAU2_FILES.dbJson };
    } catch (error) {
      notes.push({
        item: TAU2_FILES.dbJson,
        message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
        place: { file: TAU2_FILES.dbJson },
      });
      return undefined;
    }
  }
  if (toml !== undefined) {
    const read = readTomlData(toml, TAU2_FILES.dbToml);
    notes.push(...read.notes);
    return read.data === undefined ? undefined : { data: read.data, file: TAU2_FILES.dbToml };
  }
  notes.push({
    item: TAU2_FILES.dbJson,
    message: 'Not found; database.yaml is left empty.',
  });
  return undefined;
}

function readDatabase(files: DomainFiles, scope: TypeScope, notes: ImportNote[]): ImportedTable[] {
  const read = databaseData(files, notes);
  if (read === undefined) return [];
  const { data, file } = read;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    notes.push({
      item: file,
      message: 'The database is not an object of tables.',
      place: { file },
    });
    return [];
  }
  const models = rowModels(scope);
  const tables: ImportedTable[] = [];
  for (const [name, collection] of Object.entries(data)) {
    const read = tableFromCollection(name, collection, file);
    notes.push(...read.notes);
    if (read.table === undefined) continue;
    const model = models.get(name);
    tables.push(model ? typedByModel(read.table, model, notes) : read.table);
  }
  return tables;
}

/** The row schema of each table the data model's DB class declares as `Dict[str, Model]`. */
function rowModels(scope: TypeScope): Map<string, JsonSchema> {
  const models = new Map<string, JsonSchema>();
  for (const c of scope.classes.values()) {
    if (!c.bases.some((b) => /(^|\.)DB$/.test(b))) continue;
    for (const field of c.fields) {
      const type = readAnnotation(field.annotation);
      if (type.kind !== 'name' || !['Dict', 'dict', 'List', 'list'].includes(type.name)) continue;
      const row = type.args[type.args.length - 1];
      if (row === undefined) continue;
      const schema = schemaOf(row, scope, new Set());
      if (schema.type === 'object' && schema.properties) models.set(field.name, schema);
    }
  }
  return models;
}

/**
 * The main policy and the documents beside it (`policy/<file>.md`, as gathered), as tau2-bench
 * gives them to the agent: telecom's tech_support_manual.md after main_policy.md. A `_solo`
 * variant (for tau2's solo mode) and a `_workflow` document beside its `_manual` twin (tau2 reads
 * the manual unless asked for the workflow) are left out, each with a note.
 */
function withPolicyDocuments(main: string, files: DomainFiles, notes: ImportNote[]): string {
  const documents = [...files.keys()]
    .filter((k) => k.startsWith(TAU2_POLICY_DOCUMENT))
    .map((k) => k.slice(TAU2_POLICY_DOCUMENT.length))
    .sort();
  const present = new Set(documents);
  const parts = [main.trimEnd()];
  for (const name of documents) {
    const why = /^(readme|changelog|license|contributing)\b/i.test(name)
      ? 'a document about the domain’s files, not a policy'
      : /_solo\.md$/i.test(name)
        ? 'the variant for tau2-bench’s solo mode, where the agent works without a user'
        : /_workflow\.md$/i.test(name) && present.has(name.replace(/_workflow\.md$/i, '_manual.md'))
          ? `an alternative to ${name.replace(/_workflow\.md$/i, '_manual.md')}, which tau2-bench reads by default`
          : undefined;
    if (why !== undefined) {
      notes.push({ item: name, message: `Not added to agent.md: ${why}.` });
      continue;
    }
    const text = files.get(`${TAU2_POLICY_DOCUMENT}${name}`) ?? '';
    parts.push(`<!-- ${name}, as tau2-bench adds it to the policy -->\n\n${text.trim()}`);
  }
  return `${parts.join('\n\n')}\n`;
}
