import { useState } from 'react';
import type { CarryNote } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { copyText } from '../../ui/clipboard.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import './importReport.css';

/**
 * What a tau2-bench or IntellAgent import left behind, item by item, and what `check` says of the
 * new project: readable here, and copied whole as the text `policylab import` prints.
 */
export function ImportReportDialog() {
  const report = useAppStore((s) => s.importReport);
  const open = useAppStore((s) => s.importReportOpen);
  const show = useAppStore((s) => s.showImportReport);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'refused'>('idle');
  if (report === null) return null;
  const close = () => {
    setCopy('idle');
    show(false);
  };
  const { counts } = report;
  // Tools left out whole come first: a call to one ends a dialogue as an error.
  const missing = report.notCarried.filter((n) => n.notImported !== undefined);
  const byFile = new Map<CarryNote['file'], CarryNote[]>();
  const partly = report.notCarried.filter((n) => n.notImported === undefined);
  for (const note of partly) byFile.set(note.file, [...(byFile.get(note.file) ?? []), note]);

  return (
    <Dialog
      open={open}
      title={`Imported “${report.projectName}” from ${report.source}`}
      onClose={close}
      wide
    >
      <div className="import-report" data-testid="import-report">
        <p className="import-report-lead">
          {report.summary} It opened as a new project; your own work is unchanged.
        </p>
        <p className="import-report-check" data-errors={counts.error > 0 ? 'yes' : 'no'}>
          Check: {counts.error} errors, {counts.warning} warnings, {counts.info} info.
        </p>
        {report.errors.length > 0 && (
          <ul className="import-report-list">
            {report.errors.map((d, i) => (
              <li key={i}>
                <code>
                  {d.file}:{d.line}:{d.column}
                </code>{' '}
                {d.message}
              </li>
            ))}
          </ul>
        )}
        {missing.length > 0 && (
          <>
            <h3 className="dialog-section">Tools not imported ({missing.length})</h3>
            <p className="import-report-none">
              A dialogue that calls one of these ends as an error, never as a success.
            </p>
            <ul className="import-report-list" aria-label="Tools not imported">
              {missing.map((n, i) => (
                <li key={i}>
                  <strong>{n.item.replace(/^tool /, '')}</strong>: {n.notImported}
                </li>
              ))}
            </ul>
          </>
        )}
        <h3 className="dialog-section">Not read ({report.notRead.length})</h3>
        {report.notRead.length === 0 ? (
          <p className="import-report-none">Every file was read.</p>
        ) : (
          <ul className="import-report-list" aria-label="Not read">
            {report.notRead.map((n, i) => (
              <li key={i}>
                <strong>{n.item}</strong>: {n.message}
              </li>
            ))}
          </ul>
        )}
        <h3 className="dialog-section">Not carried, or carried in part ({partly.length})</h3>
        {partly.length === 0 && <p className="import-report-none">Everything was carried.</p>}
        {[...byFile].map(([file, notes]) => (
          <section key={file} className="import-report-file">
            <h4>{file}</h4>
            <ul className="import-report-list" aria-label={`Not carried in ${file}`}>
              {notes.map((n, i) => (
                <li key={i}>
                  <strong>{n.item}</strong>: {n.message}
                </li>
              ))}
            </ul>
          </section>
        ))}
        {copy === 'refused' && (
          <label className="import-report-text">
            <span>The browser would not copy; select the text and copy it yourself.</span>
            <textarea
              readOnly
              rows={8}
              value={report.text}
              onFocus={(e) => {
                e.target.select();
              }}
            />
          </label>
        )}
      </div>
      <div className="dialog-row">
        <span className="import-report-copied" role="status">
          {copy === 'copied' ? 'Copied.' : ''}
        </span>
        <div className="import-report-actions">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              void copyText(report.text).then((ok) => {
                setCopy(ok ? 'copied' : 'refused');
              });
            }}
          >
            Copy report
          </button>
          <button type="button" className="button" onClick={close}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
