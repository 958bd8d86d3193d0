import { memo, useState } from 'react';
import type { Replay, Row, TableAt } from '../../core/index.ts';
import { findingState } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { cellText, cellTitle } from './cellText.ts';

/** Past this many rows a table shows its changed rows only, unless asked for all. */
const MANY_ROWS = 40;

/** What stood at the replay's step: the verdicts reached so far and the database. */
export function Inspector() {
  const store = useAppStoreApi();
  const selectors = replaySelectors(store);
  const frame = useAppStore(selectors.selectFrame);
  const replay = useAppStore(selectors.selectReplay);
  if (!frame || !replay) return null;
  const { settled } = frame;
  const broken = settled.findings.filter((f) => findingState(f) === 'broken');
  const violated = settled.opinions.filter((o) => o.violated);
  return (
    <aside className="replay-inspector" aria-label="At this step">
      <section>
        <h3>Verdicts so far</h3>
        <ul className="replay-settled" data-testid="settled">
          <li>
            Guard: {settled.allowed} call{settled.allowed === 1 ? '' : 's'} allowed,{' '}
            <span data-bad={settled.refusals > 0 ? 'true' : undefined}>
              {settled.refusals} refused
            </span>
          </li>
          <li>
            Checks: {settled.findings.length} settled
            {broken.length > 0 && (
              <span data-bad="true">
                , {broken.length} broken (
                {[...new Set(broken.map((f) => f.policy ?? f.id))].join(', ')})
              </span>
            )}
          </li>
          {settled.opinions.length > 0 && (
            <li className="replay-opinion-line">
              Judge’s opinion (a model): {violated.length} of {settled.opinions.length} policies
              violated
            </li>
          )}
        </ul>
      </section>
      <DatabaseAt
        tables={frame.database}
        known={replay.startDb !== null}
        touched={firstTouched(replay)}
      />
    </aside>
  );
}

/** The first table the dialogue changes at any step: the one worth watching as it steps. */
function firstTouched(replay: Replay): string | undefined {
  for (const step of replay.steps) {
    const change = step.call?.result?.changes[0];
    if (change) return change.table;
  }
  return undefined;
}

function DatabaseAt({
  tables,
  known,
  touched,
}: {
  tables: readonly TableAt[];
  known: boolean;
  touched: string | undefined;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  // The same table at every step (the one the dialogue changes), unless the reader picks another.
  const name = chosen ?? touched ?? tables[0]?.name;
  const table = tables.find((t) => t.name === name);
  const changedOnly = !all && (table?.rows.length ?? 0) > MANY_ROWS;
  const rows = table ? (changedOnly ? table.rows.filter((r) => r.mark) : table.rows) : [];
  const columns = table ? columnsOf(table) : [];
  return (
    <section className="replay-db" aria-label="Database at this step">
      <h3>Database</h3>
      {!known && (
        <p className="replay-faint">
          This run was saved before runs kept their starting data: only the rows it changed are
          shown.
        </p>
      )}
      {tables.length === 0 ? (
        <p className="replay-faint">No tables.</p>
      ) : (
        <>
          <div className="replay-db-bar">
            <label className="replay-field">
              <span>Table</span>
              <select
                value={name}
                onChange={(e) => {
                  setChosen(e.target.value);
                }}
              >
                {tables.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name} ({t.rows.length} rows{t.changed > 0 ? `, ${t.changed} changed` : ''})
                  </option>
                ))}
              </select>
            </label>
            {(table?.rows.length ?? 0) > MANY_ROWS && (
              <label className="replay-check">
                <input
                  type="checkbox"
                  checked={all}
                  onChange={(e) => {
                    setAll(e.target.checked);
                  }}
                />
                Every row
              </label>
            )}
          </div>
          {changedOnly && rows.length === 0 ? (
            <p className="replay-faint">Nothing in {name} has changed yet.</p>
          ) : (
            <div className="replay-table-box">
              <table className="replay-table" aria-label={`Table ${name ?? ''}`}>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c} scope="col">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <DbRow key={r.key} row={r.row} mark={r.mark} columns={columns} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The columns of a table as its rows have them, in first-seen order. */
function columnsOf(table: TableAt): string[] {
  const seen = new Set<string>();
  if (table.key) seen.add(table.key);
  for (const r of table.rows.slice(0, 50)) for (const c of Object.keys(r.row)) seen.add(c);
  for (const r of table.rows) if (r.mark) for (const c of Object.keys(r.row)) seen.add(c);
  return [...seen];
}

const DbRow = memo(function DbRow({
  row,
  mark,
  columns,
}: {
  row: Row;
  mark: TableAt['rows'][number]['mark'];
  columns: readonly string[];
}) {
  return (
    <tr data-mark={mark} title={mark ? MARK_TITLES[mark] : undefined}>
      {columns.map((c) => (
        <td key={c} title={cellTitle(row[c])}>
          {cellText(row[c])}
        </td>
      ))}
    </tr>
  );
});

const MARK_TITLES = {
  insert: 'Added in this dialogue',
  update: 'Changed in this dialogue',
  delete: 'Deleted in this dialogue',
} as const;
