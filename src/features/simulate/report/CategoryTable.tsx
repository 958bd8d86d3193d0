import { useState } from 'react';
import type { RunReport } from '../../../core/index.ts';

type CategoryReport = RunReport['byCategory'][number];
import { percent, rateWithInterval } from '../format.ts';
import { sortRows } from './chartMath.ts';
import { ModelsCaption } from './ModelsCaption.tsx';
import { RateBar } from './RateBar.tsx';
import type { SortState } from './chartMath.ts';
import { SortHeader } from './SortHeader.tsx';

type Column = 'name' | 'rate' | 'judged';

const KEYS: Record<Column, (c: CategoryReport) => number | string> = {
  name: (c) => c.category,
  rate: (c) => c.rate,
  judged: (c) => c.passes + c.fails,
};

/** Pass rate by policy category, sortable, each row with a bar of its rate and interval. */
export function CategoryTable({ report }: { report: RunReport }) {
  const [sort, setSort] = useState<SortState<Column> | null>(null);
  if (report.byCategory.length === 0) return null;
  const rows = sort
    ? sortRows(report.byCategory, KEYS[sort.key], sort.direction)
    : report.byCategory;
  return (
    <table className="run-table rate-table" aria-label="Pass rate by category">
      <caption>
        By category · <ModelsCaption report={report} />
      </caption>
      <thead>
        <tr>
          <SortHeader label="Category" column="name" sort={sort} onSort={setSort} />
          <SortHeader label="Pass rate" column="rate" sort={sort} onSort={setSort} />
          <SortHeader label="Judged" column="judged" sort={sort} onSort={setSort} />
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.category}>
            <th scope="row">{c.category}</th>
            <td>
              <div className="rate-cell">
                <span className="rate-value">{percent(c.rate)}</span>
                <RateBar rate={c} />
              </div>
              <div className="simulate-faint">{rateWithInterval(c)}</div>
            </td>
            <td>
              {c.passes}/{c.passes + c.fails}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
