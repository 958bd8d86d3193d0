import type { RunReport, SimEvent } from '../../../core/index.ts';
import { gzipLog, reportCsv, reportMarkdown } from '../../../core/index.ts';
import { downloadFile, fileStem } from '../../../ui/download.ts';

/**
 * Prints the report alone: `simulate.css`'s print rules hide the rest of the page meanwhile, and
 * the light theme holds while it prints (paper has no dark background to carry light text).
 */
function printReport(): void {
  const root = document.documentElement;
  const theme = root.getAttribute('data-theme');
  document.body.dataset.print = 'report';
  root.setAttribute('data-theme', 'light');
  window.addEventListener(
    'afterprint',
    () => {
      delete document.body.dataset.print;
      if (theme === null) root.removeAttribute('data-theme');
      else root.setAttribute('data-theme', theme);
    },
    { once: true },
  );
  window.print();
}

/** The run as files: its log (plain or compressed), the report as Markdown or CSV, or on paper. */
export function ReportFiles({
  title,
  events,
  report,
}: {
  title: string;
  events: readonly SimEvent[];
  report: RunReport;
}) {
  const stem = fileStem(title, 'run');
  const files = [
    {
      label: 'Log (JSONL)',
      save: () => {
        downloadFile(
          events.map((e) => JSON.stringify(e)).join('\n') + '\n',
          `${stem}.jsonl`,
          'application/x-ndjson',
        );
      },
    },
    {
      label: 'Log (gzip)',
      save: () => {
        downloadFile(gzipLog(events), `${stem}.json.gz`, 'application/gzip');
      },
    },
    {
      label: 'Report (Markdown)',
      save: () => {
        downloadFile(reportMarkdown(report, title), `${stem}-report.md`, 'text/markdown');
      },
    },
    {
      label: 'Report (CSV)',
      save: () => {
        downloadFile(reportCsv(report), `${stem}-report.csv`, 'text/csv');
      },
    },
    { label: 'Printable report', save: printReport },
  ];
  return (
    <div className="report-files" role="group" aria-label="Save the run">
      {files.map((file) => (
        <button key={file.label} type="button" className="button button-quiet" onClick={file.save}>
          {file.label}
        </button>
      ))}
    </div>
  );
}
