import { useState } from 'react';
import type { Diagnostic } from '../../core/index.ts';
import { countBySeverity } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { Icon } from '../../ui/Icon.tsx';

const NO_DIAGNOSTICS: readonly Diagnostic[] = [];
const SEVERITY_ICON = { error: 'alert', warning: 'alert', info: 'info' } as const;

/** Every diagnostic of the project, in file and line order; clicking one shows it in the editor. */
export function ProblemsPanel() {
  const diagnostics = useAppStore((s) => s.analysis?.diagnostics ?? NO_DIAGNOSTICS);
  const analysisError = useAppStore((s) => s.analysisError);
  const revealAt = useAppStore((s) => s.revealAt);
  const [open, setOpen] = useState(true);
  const counts = countBySeverity(diagnostics);

  return (
    <section className="problems" aria-label="Problems" data-open={open}>
      <button
        type="button"
        className="problems-header"
        aria-expanded={open}
        onClick={() => {
          setOpen(!open);
        }}
      >
        <span className="problems-title">Problems</span>
        <span className="problems-count" data-severity="error" title="Errors">
          <Icon name="alert" size={12} /> {counts.error}
        </span>
        <span className="problems-count" data-severity="warning" title="Warnings">
          <Icon name="alert" size={12} /> {counts.warning}
        </span>
        <span className="problems-count" data-severity="info" title="Notes">
          <Icon name="info" size={12} /> {counts.info}
        </span>
      </button>
      {open && (
        <ul className="problems-list">
          {analysisError !== null && (
            <li className="problems-empty" role="alert">
              The project could not be checked: {analysisError}
            </li>
          )}
          {diagnostics.length === 0 && analysisError === null && (
            <li className="problems-empty">No problems in this project.</li>
          )}
          {diagnostics.map((d) => (
            <li key={`${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`}>
              <button
                type="button"
                className="problem"
                data-severity={d.severity}
                onClick={() => {
                  revealAt(d.file, d.line, d.column);
                }}
              >
                <span className="problem-icon" data-severity={d.severity}>
                  <Icon name={SEVERITY_ICON[d.severity]} size={13} />
                </span>
                <span className="problem-message">{d.message}</span>
                <span className="problem-where">
                  {d.file}:{d.line}:{d.column}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
