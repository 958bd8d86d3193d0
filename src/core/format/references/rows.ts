import { closest } from '../../text.ts';
import { structuredValueProblem } from '../columnValues.ts';
import type { Column, Row, Table } from '../model.ts';
import type { YamlPath } from '../yamlFile.ts';
import type { Findings, YamlFiles } from './context.ts';

/** What is wrong with one row of a table: unknown columns, missing values, wrong types. */
export function rowProblems(table: Table, row: Row): { at: YamlPath; message: string }[] {
  const problems: { at: YamlPath; message: string }[] = [];
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  for (const [name, value] of Object.entries(row)) {
    const column = byName.get(name);
    if (!column) {
      const guess = closest(name, byName.keys());
      problems.push({
        at: [name],
        message: `"${table.name}" has no column "${name}".${guess ? ` Did you mean "${guess}"?` : ''}`,
      });
      continue;
    }
    const wrong = valueProblem(column, value);
    if (wrong) problems.push({ at: [name], message: wrong });
  }
  for (const column of table.columns) {
    if (!(column.name in row) && !column.nullable) {
      problems.push({
        at: [],
        message: `This row of "${table.name}" lacks "${column.name}" (${column.type}).`,
      });
    }
  }
  return problems;
}

function valueProblem(column: Column, value: unknown): string | undefined {
  if (value === null)
    return column.nullable
      ? undefined
      : `"${column.name}" may not be empty (null); it is not nullable.`;
  if (column.type === 'array' || column.type === 'object') {
    return structuredValueProblem(column, value);
  }
  const ok =
    (column.type === 'string' && typeof value === 'string') ||
    (column.type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (column.type === 'integer' && Number.isInteger(value)) ||
    (column.type === 'boolean' && typeof value === 'boolean');
  if (!ok) {
    const article = column.type === 'integer' ? 'an integer' : `a ${column.type}`;
    return `"${column.name}" must be ${article}, not ${JSON.stringify(value)}.`;
  }
  if (column.enum && !column.enum.includes(value)) {
    return `"${column.name}" must be one of ${column.enum.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(value)}.`;
  }
  return undefined;
}

/**
 * Reports the rows written at `path` that do not fit `table` or repeat a key. `seed` says they
 * are the table's own seed rows; a scenario's rows are also warned about when their key is
 * already in the seed data, since they would replace that row.
 */
export function checkRows(
  found: Findings,
  file: keyof YamlFiles,
  path: YamlPath,
  table: Table,
  rows: readonly Row[],
  seed: boolean,
): void {
  const keys = new Map<unknown, number>();
  const seedKeys = new Set(table.rows.map((r) => r[table.key]));
  rows.forEach((row, i) => {
    for (const problem of rowProblems(table, row)) {
      found.report(file, [...path, i, ...problem.at], 'bad-row', problem.message);
    }
    const key = row[table.key];
    if (key === undefined) return;
    if (keys.has(key)) {
      found.report(
        file,
        [...path, i, table.key],
        'duplicate-key',
        `Another row of "${table.name}" already has ${table.key} ${JSON.stringify(key)}.`,
      );
    } else if (!seed && seedKeys.has(key)) {
      found.report(
        file,
        [...path, i, table.key],
        'duplicate-key',
        `The seed data of "${table.name}" already has ${table.key} ${JSON.stringify(key)}; this row would replace it.`,
        'warning',
      );
    }
    keys.set(key, i);
  });
}
