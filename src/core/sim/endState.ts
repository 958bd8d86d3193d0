import type { EndState } from '../format/model.ts';
import { jsonEqual } from './actionMatch.ts';
import type { Database, RowChange } from './events.ts';
import { toPlain } from './plainValues.ts';
import { netChanges } from './transcript.ts';

/** One way the database's end differs from `expected.end_state`, as a person reads it. */
export interface EndStateDifference {
  readonly table: string;
  readonly key: string;
  readonly text: string;
}

const MISSING = Symbol('missing');

/** A field's value, with null and absent read alike (tau2-bench drops nulls before it compares). */
function field(row: Readonly<Record<string, unknown>> | undefined, name: string): unknown {
  if (!row || !Object.hasOwn(row, name)) return MISSING;
  const value = toPlain(row[name]);
  return value === null ? MISSING : value;
}

function shown(value: unknown): string {
  if (value === MISSING) return 'nothing';
  const text = (JSON.stringify(value) as string | undefined) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const same = (a: unknown, b: unknown) => (a === MISSING ? b === MISSING : jsonEqual(a, b));

/**
 * How the dialogue's changes differ from the end state a scenario expects (tau2-bench's database
 * check, field by field): each row it lists has those fields at the end (`null`: the row is
 * gone) and every other field as it started; every row it does not list is as it started.
 * `changes` are the dialogue's row changes, setup calls included; `start` is the database before
 * them and `keys` each table's key column, to find a listed row that did not change.
 */
export function endStateDifferences(
  expected: EndState,
  changes: readonly RowChange[],
  start: Database,
  keys: ReadonlyMap<string, string>,
): EndStateDifference[] {
  const differences: EndStateDifference[] = [];
  const net = new Map(netChanges(changes).map((c) => [`${c.table}\u0000${c.key}`, c]));
  const listed = (table: string, key: string) =>
    Object.hasOwn(expected, table) && Object.hasOwn(expected[table] ?? {}, key);

  for (const [table, rows] of Object.entries(expected)) {
    for (const [key, fields] of Object.entries(rows)) {
      const change = net.get(`${table}\u0000${key}`);
      const startRow =
        change?.before ??
        (change
          ? undefined
          : start[table]?.find((row) => String(row[keys.get(table) ?? '']) === key));
      const endRow = change ? change.after : startRow;
      const say = (text: string) =>
        differences.push({ table, key, text: `${table} ${key}: ${text}` });
      if (fields === null) {
        if (endRow) say('is still there, where it was expected to be gone');
        continue;
      }
      if (!endRow) {
        say(startRow || change ? 'was deleted, where it was expected to stay' : 'is not there');
        continue;
      }
      const names = new Set([
        ...Object.keys(endRow),
        ...Object.keys(startRow ?? {}),
        ...Object.keys(fields),
      ]);
      const wrong: string[] = [];
      for (const name of names) {
        const want = Object.hasOwn(fields, name) ? field(fields, name) : field(startRow, name);
        const got = field(endRow, name);
        if (!same(got, want))
          wrong.push(`${name} is ${shown(got)} where ${shown(want)} was expected`);
      }
      if (wrong.length > 0) say(wrong.join(', '));
    }
  }
  for (const change of net.values()) {
    if (listed(change.table, change.key)) continue;
    const fields = Object.keys({ ...change.before, ...change.after }).filter(
      (name) => !same(field(change.before, name), field(change.after, name)),
    );
    if (change.kind === 'update' && fields.length === 0) continue;
    const what =
      change.kind === 'insert'
        ? 'was added'
        : change.kind === 'delete'
          ? 'was deleted'
          : `changed (${fields.join(', ')})`;
    differences.push({
      table: change.table,
      key: change.key,
      text: `${change.table} ${change.key} ${what}, where no change was expected`,
    });
  }
  return differences;
}
