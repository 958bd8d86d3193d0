import type { RateComparison } from '../../../core/index.ts';
import { percent } from '../format.ts';
import { CHANGE_WORDS, differenceText } from './compareFormat.ts';

const rate = (row: RateComparison['before']) => `${percent(row.rate)} (${row.passes + row.fails})`;

/** Rows of a comparison (per policy or per category): both rates, the difference and its word. */
export function RateTable({
  label,
  heading,
  rows,
}: {
  label: string;
  heading: string;
  rows: readonly RateComparison[];
}) {
  if (rows.length === 0) return null;
  return (
    <table className="run-table compare-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">{heading}</th>
          <th scope="col">Before (n)</th>
          <th scope="col">After (n)</th>
          <th scope="col">Difference</th>
          <th scope="col">Change</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-change={row.change}>
            <th scope="row">
              <code>{row.key}</code>
            </th>
            <td>{rate(row.before)}</td>
            <td>{rate(row.after)}</td>
            <td>{differenceText(row.difference)}</td>
            <td className="compare-change">{CHANGE_WORDS[row.change]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
