import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, duplicates, unknownName } from './context.ts';
import { checkRows } from './rows.ts';

/**
 * database.yaml's tables: each name used once, the key one of the table's columns, each
 * `references` another table, and the seed rows fitting their table with no key twice.
 */
export function checkTables(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const { tables } = context;
  duplicates(
    context.model.tables,
    (t) => t.name,
    (t, name) => {
      found.report(
        'database.yaml',
        [...t.path, 'name'],
        'duplicate-id',
        `The table "${name}" is defined twice.`,
      );
    },
  );
  for (const table of context.model.tables) {
    const columnNames = table.columns.map((c) => c.name);
    if (table.key !== '' && !columnNames.includes(table.key)) {
      found.report(
        'database.yaml',
        [...table.path, 'key'],
        'unknown-column',
        unknownName('column', table.key, columnNames).replace('.', ` in table "${table.name}".`),
      );
    }
    for (const column of table.columns) {
      if (column.references !== undefined && !tables.has(column.references)) {
        found.report(
          'database.yaml',
          [...table.path, 'columns', column.name, 'references'],
          'unknown-table',
          unknownName('table', column.references, tables.keys()),
        );
      }
    }
    checkRows(found, 'database.yaml', [...table.path, 'rows'], table, table.rows, true);
  }
  return found.diagnostics;
}
