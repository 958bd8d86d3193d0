import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings } from './context.ts';

/**
 * database.yaml's seed rows against each other: a value in a column that `references` a table
 * must be the key of one of that table's seed rows (null and a left-out value are fine).
 */
export function checkForeignKeys(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  for (const table of context.model.tables) {
    for (const column of table.columns) {
      const target =
        column.references === undefined ? undefined : context.tables.get(column.references);
      if (!target) continue;
      const targetKeys = new Set(target.rows.map((r) => r[target.key]));
      table.rows.forEach((row, i) => {
        const value = row[column.name];
        if (value !== undefined && value !== null && !targetKeys.has(value)) {
          found.report(
            'database.yaml',
            [...table.path, 'rows', i, column.name],
            'missing-row',
            `No row of "${target.name}" has ${target.key} ${JSON.stringify(value)}.`,
          );
        }
      });
    }
  }
  return found.diagnostics;
}
