import type { ProjectModel, Row, Table } from '../format/model.ts';
import { rowProblems } from '../format/references.ts';
import { closest } from '../text.ts';
import type { Database, RowChange } from './events.ts';
import { changedColumns, sameRow, toPlain } from './plainValues.ts';

function isJsonScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** The row with every value in `toPlain` form; the same object when it already is. */
function plainRow(row: Row): Row {
  return Object.values(row).every(isJsonScalar)
    ? row
    : Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toPlain(v)]));
}

/** A row's key as `RowChange` records it. */
export function rowKey(row: Row, keyColumn: string): string {
  const value = Object.hasOwn(row, keyColumn) ? row[keyColumn] : undefined;
  return typeof value === 'string' ? value : JSON.stringify(toPlain(value));
}

/**
 * What is wrong with a row for a table (unknown column, wrong type or enum value, a missing
 * column that is not nullable, no key), in words that name the column; empty when it fits.
 * Values are judged in the form they would be stored in (`toPlain`).
 */
export function validateRow(table: Table, row: unknown): string[] {
  if (!isRow(row)) {
    const shown = JSON.stringify(toPlain(row));
    return [`A row of "${table.name}" must be a map from column to value, not ${shown}.`];
  }
  const plain = plainRow(row);
  const problems = rowProblems(table, plain).map((p) => p.message);
  const keyColumn = table.columns.find((c) => c.name === table.key);
  if (keyColumn?.nullable && (plain[table.key] ?? null) === null) {
    problems.push(`This row of "${table.name}" has no key: "${table.key}" is empty.`);
  }
  return problems;
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fills the nullable columns a row leaves out with null, so conditions can read them. */
function completeRow(table: Table, row: Row): Row {
  const missing = table.columns.filter((c) => c.nullable && !Object.hasOwn(row, c.name));
  return missing.length === 0
    ? row
    : { ...row, ...Object.fromEntries(missing.map((c) => [c.name, null])) };
}

/** How the problems of `seedDatabase` name a scenario's rows. */
const SCENARIO_ROWS = { row: 'Scenario row', rows: "The scenario's rows" } as const;

/**
 * The database a dialogue starts from: every table's seed rows, then the scenario's `extra` rows.
 * A row that does not fit its table (see `validateRow`), repeats a key, or names a table that
 * does not exist is left out, with a problem saying which row and why. A scenario row whose key
 * is already in the seed data replaces that seed row (the format check warns about it).
 * Nullable columns a row leaves out are filled with null. `whose` names the extra rows in those
 * problems: the scenario's, or (in the rule playground) the ones typed there.
 */
export function seedDatabase(
  model: ProjectModel,
  extra?: Database,
  whose: { readonly row: string; readonly rows: string } = SCENARIO_ROWS,
): { db: Database; problems: string[] } {
  const problems: string[] = [];
  const db: Record<string, readonly Row[]> = {};
  for (const table of model.tables) {
    if (Object.hasOwn(db, table.name)) continue; // a duplicate table is the format check's to report
    const rows: Row[] = [];
    const keyed = table.columns.some((c) => c.name === table.key);
    const seen = new Map<string, { at: number; fromScenario: boolean }>();
    const add = (candidate: unknown, label: string, fromScenario: boolean) => {
      const wrong = validateRow(table, candidate);
      const given = isRow(candidate) ? candidate[table.key] : undefined;
      const keyValue = isRow(candidate) ? rowKey(candidate, table.key) : '';
      const where = `${label} of "${table.name}"${given === undefined || given === null ? '' : ` (${table.key} ${JSON.stringify(keyValue)})`}`;
      if (wrong.length > 0 || !isRow(candidate)) {
        problems.push(`${where} is left out: ${wrong.join(' ')}`);
        return;
      }
      const row = completeRow(table, plainRow(candidate));
      const earlier = keyed ? seen.get(keyValue) : undefined;
      if (earlier === undefined) {
        seen.set(keyValue, { at: rows.length, fromScenario });
        rows.push(row);
      } else if (fromScenario && !earlier.fromScenario) {
        seen.set(keyValue, { at: earlier.at, fromScenario });
        rows[earlier.at] = row;
      } else {
        problems.push(
          `${where} is left out: an earlier row already has ${table.key} ${JSON.stringify(keyValue)}.`,
        );
      }
    };
    table.rows.forEach((row, i) => {
      add(row, `Seed row ${i + 1}`, false);
    });
    const scenarioRows = extra && Object.hasOwn(extra, table.name) ? extra[table.name] : undefined;
    (scenarioRows ?? []).forEach((row, i) => {
      add(row, `${whose.row} ${i + 1}`, true);
    });
    db[table.name] = rows;
  }
  for (const name of Object.keys(extra ?? {})) {
    if (Object.hasOwn(db, name)) continue;
    const guess = closest(name, Object.keys(db));
    problems.push(
      `${whose.rows} for "${name}" are left out: there is no such table.${guess ? ` Did you mean "${guess}"?` : ''}`,
    );
  }
  return { db, problems };
}

/**
 * The field-level difference between two databases: rows are matched by their table's key (not
 * their position). Per table, in the model's order: updates and deletes in the order of `before`,
 * then inserts in the order of `after`. Tables the model does not know are matched on `id`.
 */
export function diffDatabases(before: Database, after: Database, model: ProjectModel): RowChange[] {
  const keys = new Map<string, string>();
  for (const table of model.tables) if (!keys.has(table.name)) keys.set(table.name, table.key);
  const others = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((name) => !keys.has(name))
    .sort();
  const changes: RowChange[] = [];
  for (const name of [...keys.keys(), ...others]) {
    const old = Object.hasOwn(before, name) ? (before[name] ?? []) : [];
    const now = Object.hasOwn(after, name) ? (after[name] ?? []) : [];
    if (old === now) continue;
    const keyColumn = keys.get(name) ?? 'id';
    const oldByKey = byKey(old, keyColumn);
    const nowByKey = byKey(now, keyColumn);
    for (const [key, row] of oldByKey) {
      const next = nowByKey.get(key);
      if (next === undefined) changes.push({ table: name, key, kind: 'delete', before: row });
      else if (!sameRow(row, next)) {
        changes.push({ table: name, key, kind: 'update', before: row, after: next });
      }
    }
    for (const [key, row] of nowByKey) {
      if (!oldByKey.has(key)) changes.push({ table: name, key, kind: 'insert', after: row });
    }
  }
  return changes;
}

/** Rows by key, in order; a repeated key keeps its first row. */
function byKey(rows: readonly Row[], keyColumn: string): Map<string, Row> {
  const map = new Map<string, Row>();
  for (const row of rows) {
    const key = rowKey(row, keyColumn);
    if (!map.has(key)) map.set(key, row);
  }
  return map;
}

function shown(value: unknown): string {
  const text = JSON.stringify(toPlain(value ?? null));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * One line a person reads in the log or replay, such as
 * `reservations ABC123: status "active" → "cancelled"` (an update shows only what changed).
 */
export function describeChange(change: RowChange): string {
  const at = `${change.table} ${change.key}`;
  const { before = {}, after = {} } = change;
  switch (change.kind) {
    case 'insert':
      return `${at}: inserted (${Object.entries(after)
        .map(([k, v]) => `${k} ${shown(v)}`)
        .join(', ')})`;
    case 'delete':
      return `${at}: deleted`;
    case 'update': {
      const fields = changedColumns(before, after);
      if (fields.length === 0) return `${at}: unchanged`;
      return `${at}: ${fields.map((k) => `${k} ${shown(before[k])} → ${shown(after[k])}`).join(', ')}`;
    }
  }
}

/** Each table's key column, by table name. */
export function tableKeys(model: Pick<ProjectModel, 'tables'>): ReadonlyMap<string, string> {
  return new Map(model.tables.map((t) => [t.name, t.key]));
}
