import { celSelect } from '../../celVariables.ts';
import { compileCel, isCelProblem } from '../../cel.ts';
import type { ImportedTool, JsonSchema } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import type { TablePlan } from './database.ts';
import type { ConditionScope, RowVariable } from './pyCondition.ts';
import { celOfPython } from './pyCondition.ts';

/** A precondition of tools.yaml: what must hold, and the error the tool answers otherwise. */
export interface Requirement {
  readonly condition: string;
  readonly error: string;
  /** Where it does not hold the tool does what the importer could not carry (`not_imported`). */
  readonly not_imported?: true;
}

const LOOKUP = /^\s*(.+?)\s+not\s+in\s+self\.db\.(\w+)\s*$/;

/**
 * What the names of a tool's Python body stand for in CEL: its arguments, the tables of
 * `self.db`, and each variable set from a helper that looks a row up by key
 * (`order = self._get_order(order_id)`, where `_get_order` fails with `order_id not in
 * self.db.orders`), which reads `db.orders.filter(r, r.order_id == args.order_id)[0]`.
 */
export function scopeOfTool(
  tool: ImportedTool,
  parameters: { properties: Record<string, JsonSchema> },
  tables: readonly TablePlan[],
): ConditionScope {
  const args = new Set(Object.keys(parameters.properties));
  const listArgs = new Set(
    Object.entries(parameters.properties)
      .filter(([, s]) => s.type === 'array')
      .map(([name]) => name),
  );
  const tableMap = new Map(tables.map((t) => [t.source, { name: t.name, key: t.key }]));
  const rows = new Map<string, RowVariable>();
  const tableVariables = new Map<string, { name: string; key: string }>();
  const scope = { args, listArgs, rows, tables: tableMap, tableVariables };
  for (const line of tool.body.split('\n')) {
    // IntellAgent: `orders = get_dict_json(data['orders'], 'order_id')`, then `orders[order_id]`.
    const whole = /^\s*([A-Za-z_]\w*)\s*=\s*(?:\w+\(\s*)?data\[\s*['"](\w+)['"]\s*\]/.exec(line);
    const wholeTable = whole ? tables.find((t) => t.source === whole[2]) : undefined;
    if (whole && wholeTable) {
      tableVariables.set(whole[1] ?? '', { name: wholeTable.name, key: wholeTable.key });
      continue;
    }
    const indexed = /^\s*([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\[\s*(\w+)\s*\]\s*$/.exec(line);
    const indexedTable = indexed ? tableVariables.get(indexed[2] ?? '') : undefined;
    const indexedKey = indexed && indexedTable ? celOfPython(indexed[3] ?? '', scope) : undefined;
    const indexedPlan = indexedTable ? tables.find((t) => t.name === indexedTable.name) : undefined;
    if (indexed && indexedKey !== undefined && indexedPlan) {
      rows.set(indexed[1] ?? '', rowOf(indexedPlan, indexedKey));
      continue;
    }
    const assignment = /^\s*([A-Za-z_]\w*)\s*=\s*self\.(\w+)\((.*)\)\s*$/.exec(line);
    if (!assignment) continue;
    const [, variable = '', helper = ''] = assignment;
    const lookup = tool.preconditions
      .filter((p) => p.via === helper && p.direct === true)
      .map((p) => LOOKUP.exec(p.condition ?? ''))
      .find((m) => m !== null);
    const table = lookup ? tables.find((t) => t.source === lookup[2]) : undefined;
    const key = lookup ? celOfPython(lookup[1] ?? '', scope) : undefined;
    if (table === undefined || key === undefined) {
      rows.delete(variable);
      continue;
    }
    rows.set(variable, rowOf(table, key));
  }
  return scope;
}

/** The row of a table whose key is `key` (CEL), as a variable of a tool's body. */
function rowOf(table: TablePlan, key: string): RowVariable {
  return {
    cel: `db.${table.name}.filter(r, ${celSelect('r', table.key)} == ${key})[0]`,
    collections: new Set(
      table.columns
        .filter((c) => c.spec.type === 'array' || c.spec.type === 'object')
        .map((c) => c.name),
    ),
    table: table.name,
    keyColumn: table.key,
    key,
    columns: new Set(table.columns.map((c) => c.name)),
  };
}

/**
 * Plans a tool's `requires:` from its own failures, in the order its body reaches them: each
 * failure whose condition alone decides it and reads as CEL over the arguments and the
 * database becomes a precondition with the source's message as its error; the rest are noted,
 * by item, with their message and condition.
 */
export function planRequires(
  tool: ImportedTool,
  parameters: { properties: Record<string, JsonSchema> },
  tables: readonly TablePlan[],
  item: string,
  notes: CarryNote[],
): Requirement[] {
  const scope = scopeOfTool(tool, parameters, tables);
  const requires: Requirement[] = [];
  const seen = new Set<string>();
  for (const p of tool.preconditions) {
    const where = `${p.place.file}${p.place.line !== undefined ? `:${p.place.line}` : ''}`;
    const translated =
      p.direct === true && p.condition !== undefined && !/\{\w/.test(p.message)
        ? celOfPython(p.condition, scope)
        : undefined;
    // A name the project cannot use in CEL (a column called `true`) leaves it untranslated.
    const cel =
      translated !== undefined && !isCelProblem(compileCel(translated)) ? translated : undefined;
    if (cel === undefined) {
      notes.push({
        file: 'tools.yaml',
        item,
        message: `Its own failure is not carried (${reason(p)}): "${p.message}"${p.condition !== undefined ? ` when ${p.condition.replace(/\s+/g, ' ')}` : ''} (${where}).`,
      });
      continue;
    }
    const condition = negate(cel);
    if (seen.has(condition)) continue;
    seen.add(condition);
    const error = p.message.replace(/^error:\s*/i, '').trim();
    requires.push({
      condition,
      error: error || `${tool.name} failed (the source gives no message).`,
    });
  }
  return requires;
}

function reason(p: ImportedTool['preconditions'][number]): string {
  if (p.condition === undefined) return 'it has no condition of its own';
  if (p.direct !== true) return 'it sits in a loop, a branch or a helper PolicyLab cannot follow';
  if (/\{\w/.test(p.message)) return 'its message names a value of the call';
  return 'its condition does not read as CEL over the arguments and the database';
}

/** `!(x)` for a condition, or `x` when it is already `!(x)`. */
export function negate(cel: string): string {
  const inner = /^!\((.*)\)$/s.exec(cel)?.[1];
  if (inner !== undefined && balanced(inner)) return inner;
  return `!(${cel})`;
}

/** Whether every parenthesis in the text closes one opened before it, and all are closed. */
export function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}
