import type { JsonValue } from '../domain.ts';
import type { TablePlan } from './database.ts';

type Row = Record<string, JsonValue>;
type Obj = Readonly<Record<string, JsonValue>>;
const isObj = (v: JsonValue | undefined): v is Obj =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A scenario's starting rows being built: per table, per key, the whole row. */
export type StartingRows = Map<string, Map<string, Row>>;

/** The key of a row as text, as the scenario rows are kept by it. */
export const keyText = (value: JsonValue | undefined): string =>
  typeof value === 'string' ? value : JSON.stringify(value ?? null);

/**
 * tau2-bench's `initialization_data` for one side (`{table: {key: partial record}}`, or for a
 * one-record table such as the user's phone `{table: partial record}`) merged into the rows the
 * scenario starts from, as tau2 merges it (`update_db`): a nested object merges into the object
 * there, any other value replaces it, a key not in the table adds a row. Each row it touches
 * becomes a whole starting row. Answers what could not be merged, one line each.
 */
export function mergeInitialData(
  data: Obj,
  tables: readonly TablePlan[],
  rows: StartingRows,
): string[] {
  const problems: string[] = [];
  for (const [source, value] of Object.entries(data)) {
    const table = tables.find((t) => t.source === source);
    if (table === undefined || !isObj(value)) {
      problems.push(`"${source}" is not a table of the domain's database`);
      continue;
    }
    const single = table.key === 'id' && table.rows.length === 1 && table.rows[0]?.id === source;
    const entries: Array<[string, JsonValue]> = single ? [[source, value]] : Object.entries(value);
    for (const [key, partial] of entries) {
      if (!isObj(partial)) {
        problems.push(`${source} ${key} is not a record`);
        continue;
      }
      const byKey = rows.get(table.name) ?? new Map<string, Row>();
      const before =
        byKey.get(key) ?? table.rows.find((r) => keyText(r[table.key]) === key) ?? undefined;
      const row: Row = before ? { ...before } : { [table.key]: key };
      const unknown = Object.keys(partial).filter(
        (f) => !table.columns.some((c) => c.source === f),
      );
      if (unknown.length > 0) {
        problems.push(`${source} ${key} sets ${unknown.join(', ')}, not columns of the table`);
        continue;
      }
      for (const column of table.columns) {
        if (column.source === undefined || !Object.hasOwn(partial, column.source)) continue;
        const next = column.value({ [column.source]: partial[column.source] ?? null });
        row[column.name] = merged(row[column.name], next);
      }
      byKey.set(key, row);
      rows.set(table.name, byKey);
    }
  }
  return problems;
}

/** tau2's merge of one value: objects merge key by key, anything else replaces. */
function merged(into: JsonValue | undefined, value: JsonValue): JsonValue {
  if (!isObj(into) || !isObj(value)) return value;
  const out: Row = { ...into };
  for (const [k, v] of Object.entries(value)) out[k] = merged(out[k], v);
  return out;
}
