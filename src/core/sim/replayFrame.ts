import type { Row } from '../format/model.ts';
import type { Finding, RowChange } from './events.ts';
import type { Replay, ReplayOpinion } from './replay.ts';

/*
 * The frame of a replay at one step: the database as it stood after the step (every row the
 * dialogue changed so far marked) and the verdicts reached by then. Folded from the replay's
 * steps alone, so stepping back and forth gives the same frame every time.
 */

/** How a row stands at a step: untouched, or changed so far (a deleted row is kept, marked). */
export type RowMark = 'insert' | 'update' | 'delete';

/** One table as it stood at a step. */
export interface TableAt {
  readonly name: string;
  readonly key: string;
  readonly rows: readonly { readonly key: string; readonly row: Row; readonly mark?: RowMark }[];
  readonly changed: number;
}

/** A row's key as the log's row changes record it. */
export function keyOf(row: Row, key: string): string {
  const value = Object.hasOwn(row, key) ? row[key] : undefined;
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** The row changes made by the call steps up to and including `step`, in order. */
export function changesUpTo(replay: Replay, step: number): RowChange[] {
  const changes: RowChange[] = [];
  for (const s of replay.steps) {
    if (s.index > step) break;
    if (s.call?.result) for (const change of s.call.result.changes) changes.push(change);
  }
  return changes;
}

/**
 * The database as it stood after `step`: every table of the starting data with the rows changed
 * so far marked (a deleted row stays, marked, so the reader sees what went), and tables the
 * starting data lacks but a change touched. Unchanged rows keep their identity between steps.
 * Without starting data (an older log) only the changed rows are known.
 */
export function databaseAt(replay: Replay, step: number): TableAt[] {
  const tables = new Map<
    string,
    { key: string; rows: Map<string, { row: Row; mark?: RowMark }> }
  >();
  for (const table of replay.startDb ?? []) {
    tables.set(table.name, {
      key: table.key,
      rows: new Map(table.rows.map((row) => [keyOf(row, table.key), { row }])),
    });
  }
  for (const change of changesUpTo(replay, step)) {
    let table = tables.get(change.table);
    if (!table) {
      table = { key: '', rows: new Map() };
      tables.set(change.table, table);
    }
    const seen = table.rows.get(change.key);
    const row = change.after ?? change.before ?? seen?.row ?? {};
    // A row the dialogue inserted stays "inserted" however it changes after.
    const mark: RowMark =
      change.kind === 'delete'
        ? 'delete'
        : seen === undefined
          ? change.kind
          : seen.mark === 'insert'
            ? 'insert'
            : 'update';
    table.rows.set(change.key, { row, mark });
  }
  return [...tables].map(([name, table]) => {
    const rows = [...table.rows].map(([key, r]) => ({ key, ...r }));
    return { name, key: table.key, rows, changed: rows.filter((r) => r.mark !== undefined).length };
  });
}

/** What was settled by `step`: guard decisions, findings and opinions pinned at or before it. */
export interface SettledAt {
  readonly refusals: number;
  readonly allowed: number;
  readonly findings: readonly Finding[];
  readonly opinions: readonly ReplayOpinion[];
}

/** The verdicts reached by `step`. */
export function settledAt(replay: Replay, step: number): SettledAt {
  let refusals = 0;
  let allowed = 0;
  for (const s of replay.steps) {
    if (s.index > step) break;
    if (s.call?.guard) {
      if (s.call.guard.allowed) allowed++;
      else refusals++;
    }
  }
  return {
    refusals,
    allowed,
    findings: replay.findings.filter((f) => f.step <= step).map((f) => f.item),
    opinions: replay.opinions.filter((o) => o.step <= step).map((o) => o.item),
  };
}
