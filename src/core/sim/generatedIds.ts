import type { Column, Row } from '../format/model.ts';

/**
 * A fresh value for a `generated:` column, from the rows the table holds now: for an integer
 * column one more than the largest; for text `prefix` then the table's row count plus one (at
 * least `digits` long, zero-padded), counting up past any value already in the column. It reads
 * nothing but the table, so a replay, a resumed run and a forked dialogue that reach the same
 * rows make the same id, and two inserts in one call (a `for_each`) make different ones.
 */
export function generatedValue(column: Column, rows: readonly Row[]): unknown {
  const spec = column.generated;
  if (spec === undefined) return undefined;
  const taken = rows.map((row) => row[column.name]);
  if (column.type === 'integer') {
    const numbers = taken.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    return numbers.length === 0 ? 1 : Math.floor(Math.max(...numbers)) + 1;
  }
  const used = new Set(taken.filter((v): v is string => typeof v === 'string'));
  for (let n = rows.length + 1; ; n++) {
    const id = `${spec.prefix}${String(n).padStart(spec.digits, '0')}`;
    if (!used.has(id)) return id;
  }
}
