import type { ImportedTool, JsonSchema, PyKnown } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import { safeName, uniqueNames } from './carry.ts';
import type { TablePlan } from './database.ts';
import { programOf } from './pyTool.ts';
import { planRequires } from './requires.ts';

/** A tool of tools.yaml, as plain data to write as YAML. */
export interface ToolEntry {
  readonly name: string;
  readonly description: string;
  readonly kind: 'read' | 'write';
  readonly parameters: JsonSchema;
  readonly requires?: ReadonlyArray<{
    readonly condition: string;
    readonly error: string;
    readonly not_imported?: true;
    /** The policy the condition encodes (attribution.ts `preconditionPolicies`). */
    readonly policy?: string;
    readonly attempt?: 'noted';
  }>;
  readonly effects?: ReadonlyArray<Record<string, unknown>>;
  readonly returns?: string;
  /** Why its behaviour is missing; a call to it ends the dialogue as an error. */
  readonly not_imported?: string;
}

/**
 * Plans tools.yaml: names, descriptions, kinds and parameter schemas carry over. A read tool
 * whose argument names a table's key returns that table's matching rows. What the source does
 * in code (a write tool's changes, its own failures) has no place in the current format and is
 * noted per tool, with each failure's message.
 */
export function planTools(
  tools: readonly ImportedTool[],
  tables: readonly TablePlan[],
  notes: CarryNote[],
  known: PyKnown = {},
): { entries: ToolEntry[]; names: Map<string, string> } {
  const unique = uniqueNames();
  const names = new Map<string, string>();
  const entries = tools.map((tool) => {
    const name = unique(safeName(tool.name, 'tool'));
    names.set(tool.name, name);
    const item = `tool ${tool.name}`;
    if (name !== tool.name)
      notes.push({
        file: 'tools.yaml',
        item,
        message: `Renamed ${name}: tool names are lower_snake_case.`,
      });
    const kind = tool.kind === 'write' ? 'write' : 'read';
    if (tool.kind === 'generic' || tool.kind === 'think')
      notes.push({
        file: 'tools.yaml',
        item,
        message: `A ${tool.kind} tool (neither read nor write in the source); written as read.`,
      });
    const parameters = schemaParameters(tool.parameters, item, notes);
    // A read tool's body read whole gives its own answer and failures; else, when its arguments
    // name a table's columns, the matching rows stand in (said in a note).
    const read =
      kind === 'read'
        ? programOf(tool.body, tool.helpers ?? {}, parameters, tables, tool.place.line ?? 1, {
            returns: true,
            known,
            attributes: tool.attributes ?? {},
          })
        : undefined;
    const answered =
      read !== undefined && 'returns' in read && read.effects.length === 0 ? read : undefined;
    const returns = answered?.returns ?? (kind === 'read' ? returnsOf(tool, tables) : undefined);
    // A write tool's whole body is read as failures and changes, or the tool is not imported: a
    // part of what it does, carried as if it were all, would be a silent wrong end state.
    const program =
      kind === 'write'
        ? programOf(tool.body, tool.helpers ?? {}, parameters, tables, tool.place.line ?? 1, {
            known,
            attributes: tool.attributes ?? {},
          })
        : undefined;
    const whole = program !== undefined && 'effects' in program ? program : undefined;
    for (const message of whole?.notes ?? []) notes.push({ file: 'tools.yaml', item, message });
    const requires =
      whole?.requires ?? answered?.requires ?? planRequires(tool, parameters, tables, item, notes);
    const effects = whole?.effects;
    let notImported: string | undefined;
    if (program !== undefined && 'reason' in program)
      notImported = `what it changes could not be read (${program.reason})`;
    // A write that changes nothing is far likelier a change the reader missed (state it cannot
    // see, such as a user's device with no table) than a write tool that does nothing.
    else if (kind === 'write') {
      if (effects?.length === 0 && whole?.inert === true)
        notes.push({
          file: 'tools.yaml',
          item,
          message: 'A write tool whose body only answers or fails; it has no effects.',
        });
      else if (effects?.length === 0)
        notImported =
          'its body changes nothing PolicyLab can see, though the source calls it a write';
    } else if (returns === undefined)
      notImported = `what it returns could not be read (${read !== undefined && 'reason' in read ? read.reason : 'it changes the database'})`;
    else if (answered === undefined)
      notes.push({
        file: 'tools.yaml',
        item,
        message: `Returns the matching rows (${returns}), not the source's own output.`,
      });
    if (notImported !== undefined)
      notes.push({
        file: 'tools.yaml',
        item,
        message: `Not imported: ${notImported}. A dialogue that calls it ends as an error.`,
        notImported,
      });
    return {
      name,
      description: tool.description.trim() || `${tool.name} (no description in the source).`,
      kind,
      parameters,
      ...(requires.length > 0 ? { requires } : {}),
      ...(effects !== undefined && effects.length > 0 ? { effects } : {}),
      ...(returns !== undefined ? { returns } : {}),
      ...(notImported !== undefined && { not_imported: `${notImported}.` }),
    } satisfies ToolEntry;
  });
  return { entries, names };
}

/**
 * `type: object` with properties and required only (what tools.yaml's schema reads); a required
 * name that is not a parameter is left out, with a note.
 */
function schemaParameters(
  schema: JsonSchema,
  item: string,
  notes: CarryNote[],
): {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
} {
  const properties =
    schema.properties !== null && typeof schema.properties === 'object'
      ? { ...(schema.properties as Record<string, JsonSchema>) }
      : {};
  const named = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((r): r is string => typeof r === 'string')
    : [];
  const required = named.filter((r) => Object.hasOwn(properties, r));
  for (const r of named.filter((n) => !Object.hasOwn(properties, n)))
    notes.push({
      file: 'tools.yaml',
      item,
      message: `Its schema requires "${r}", which is not among its parameters; left out of required.`,
    });
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * For a read tool whose every argument names a column of one table its code reads (`order_id`,
 * or `zip` for `address_zip`): that table's rows matching all of them. A table keyed by the
 * argument wins.
 */
function returnsOf(tool: ImportedTool, tables: readonly TablePlan[]): string | undefined {
  const args = Object.keys(
    (tool.parameters.properties as Record<string, unknown> | undefined) ?? {},
  );
  if (args.length === 0 || !args.every((a) => /^[a-z][a-z0-9_]*$/.test(a))) return undefined;
  // Only a table the code reads: a tool that computes from its arguments alone (a quote from a
  // weight) must not answer with rows that happen to share a column name.
  const called = Object.entries(tool.helpers ?? {}).filter(([name]) =>
    tool.body.includes(`self.${name}(`),
  );
  const code = [tool.body, ...called.map(([, source]) => source)].join('\n');
  // The table named in the code: `self.db.orders` (tau2-bench), `data['orders']` (IntellAgent).
  const read = tables.filter((t) => namesWord(code, t.source));
  const ordered = [...read].sort(
    (a, b) => Number(args.includes(b.key)) - Number(args.includes(a.key)),
  );
  for (const table of ordered) {
    const columns = args.map((arg) => columnFor(table, arg));
    if (columns.some((c) => c === undefined)) continue;
    const test = args.map((arg, i) => `r.${columns[i] ?? ''} == args.${arg}`).join(' && ');
    return `db.${table.name}.filter(r, ${test})`;
  }
  return undefined;
}

/**
 * The column an argument names, as a path from the row: the same name, else the one scalar
 * column or object field ending in `_<arg>` or named `<arg>` (`zip` for `address.zip`).
 */
function columnFor(table: TablePlan, arg: string): string | undefined {
  const paths: string[] = [];
  for (const column of table.columns) {
    const { type, schema, description } = column.spec;
    if (type === 'object') {
      const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
      for (const [field, fieldSchema] of Object.entries(properties))
        if (/^[a-z][a-z0-9_]*$/.test(field) && typeof fieldSchema.type === 'string')
          paths.push(`${column.name}.${field}`);
    } else if (type !== 'array' && !(type === 'string' && description?.startsWith('JSON text')))
      paths.push(column.name);
  }
  if (paths.includes(arg)) return arg;
  const suffixed = paths.filter((n) => n.endsWith(`_${arg}`) || n.endsWith(`.${arg}`));
  return suffixed.length === 1 ? suffixed[0] : undefined;
}

/** Whether `name` stands in `code` as a whole word (no letter, digit or `_` either side). */
function namesWord(code: string, name: string): boolean {
  if (name === '') return false;
  for (let at = code.indexOf(name); at >= 0; at = code.indexOf(name, at + 1)) {
    const before = code[at - 1] ?? ' ';
    const after = code[at + name.length] ?? ' ';
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
  }
  return false;
}
