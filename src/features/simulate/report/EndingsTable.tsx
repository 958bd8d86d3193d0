import type { RunReport } from '../../../core/index.ts';
import { ENDING_LABELS } from '../../../core/index.ts';
import { endingCounts } from './chartMath.ts';

/** How the dialogues ended, by cause, and how many of each count as errors (not failures). */
export function EndingsTable({ report }: { report: RunReport }) {
  const rows = endingCounts(report.dialogues);
  if (rows.length === 0) return null;
  return (
    <table className="run-table" aria-label="Endings by cause">
      <caption>Endings and errors by cause</caption>
      <thead>
        <tr>
          <th scope="col">Ending</th>
          <th scope="col">Dialogues</th>
          <th scope="col">Errors (left out of the rates)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.reason}>
            <th scope="row">{ENDING_LABELS[row.reason].short}</th>
            <td>{row.count}</td>
            <td>{row.errors}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
