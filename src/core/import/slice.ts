import type { ImportNote, ImportedTable, ImportedTask, JsonValue } from './domain.ts';
import { rowKey } from './tables.ts';

/** How many rows of each table a slice keeps besides the ones the tasks touch. */
export const SAMPLE_ROWS = 5;

/** Every string inside a value, however deep. */
export function stringsIn(value: JsonValue, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const v of value as readonly JsonValue[]) stringsIn(v, into);
  else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) stringsIn(v, into);
  return into;
}

/**
 * The tables cut down to what the tasks touch: rows whose key a task names (in an action's
 * arguments or its text), rows found by an action's arguments (a user by name and zip), the
 * rows those rows name in turn (an order's user, its products), and the first `sample` rows of
 * each table. Tables at or under `limit` rows are kept whole.
 */
export function sliceTables(
  tables: readonly ImportedTable[],
  tasks: readonly ImportedTask[],
  {
    limit = 200,
    sample = SAMPLE_ROWS,
  }: { readonly limit?: number | undefined; readonly sample?: number | undefined } = {},
): { tables: ImportedTable[]; notes: ImportNote[] } {
  const byKey = new Map<string, Array<{ table: number; row: number }>>();
  tables.forEach((table, t) => {
    table.rows.forEach((row, r) => {
      const key = rowKey(table, row);
      byKey.set(key, [...(byKey.get(key) ?? []), { table: t, row: r }]);
    });
  });
  const kept = tables.map(() => new Set<number>());
  const queue: Array<{ table: number; row: number }> = [];
  const keep = (hit: { table: number; row: number }) => {
    const set = kept[hit.table];
    if (set === undefined || set.has(hit.row)) return;
    set.add(hit.row);
    queue.push(hit);
  };
  const rowStrings = tables.map((t) => t.rows.map((row) => stringsIn(row)));
  for (const task of tasks) {
    const text = [
      task.goal,
      task.instructions ?? '',
      task.persona ?? '',
      ...task.knows,
      ...task.unknown,
    ].join('\n');
    const named = new Set<string>();
    for (const action of task.actions) stringsIn(action.arguments, named);
    for (const s of named) for (const hit of byKey.get(s) ?? []) keep(hit);
    for (const [key, hits] of byKey) if (key.length >= 3 && text.includes(key)) hits.forEach(keep);
    for (const action of task.actions) {
      const values = [...stringsIn(action.arguments)];
      if (values.length === 0 || values.some((v) => byKey.has(v))) continue;
      rowStrings.forEach((rows, t) => {
        rows.forEach((strings, r) => {
          if (values.every((v) => strings.has(v))) keep({ table: t, row: r });
        });
      });
    }
  }
  while (queue.length > 0) {
    const { table, row } = queue.pop() ?? { table: 0, row: 0 };
    for (const s of rowStrings[table]?.[row] ?? []) for (const hit of byKey.get(s) ?? []) keep(hit);
  }
  const notes: ImportNote[] = [];
  const sliced = tables.map((table, t) => {
    if (table.rows.length <= limit) return table;
    const set = kept[t] ?? new Set<number>();
    for (let r = 0; r < Math.min(sample, table.rows.length); r++) set.add(r);
    const rows = table.rows.filter((_, r) => set.has(r));
    notes.push({
      item: `table ${table.name}`,
      message: `Sliced to ${rows.length} of ${table.rows.length} rows: the rows the tasks touch and a sample of ${sample}.`,
    });
    return { ...table, rows };
  });
  return { tables: sliced, notes };
}
