import { useState } from 'react';
import type { Diagnostic } from '../../core/index.ts';
import { countBySeverity } from '../../core/index.ts';
import type { AppState } from '../../state/createAppStore.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { Icon } from '../../ui/Icon.tsx';

const NO_DIAGNOSTICS: readonly Diagnostic[] = [];
const SEVERITY_ICON = { error: 'alert', warning: 'alert', info: 'info' } as const;
/** How many rows the list draws at first, and how many more each "Show more" adds. */
export const PROBLEMS_PAGE = 500;

/** Whether the analysis shown is of the text as it is now (none has run yet on opening). */
const analysisIsCurrent = (s: AppState) =>
  s.analysis !== null && s.analysis.files === s.project.files;

/**
 * Every diagnostic of the project, in file and line order; clicking one shows it in the editor.
 * Errors and warnings come first; notes (such as each policy only a judge model can report on)
 * follow, folded under one line until opened, so they never push a problem out of sight.
 */
export function ProblemsPanel() {
  const diagnostics = useAppStore((s) => s.analysis?.diagnostics ?? NO_DIAGNOSTICS);
  const analysisError = useAppStore((s) => s.analysisError);
  const current = useAppStore(analysisIsCurrent);
  const revealAt = useAppStore((s) => s.revealAt);
  const [open, setOpen] = useState(true);
  const [notesOpen, setNotesOpen] = useState(false);
  // A project can have hundreds of thousands of problems: the list draws a page at a time.
  const [problemsShown, setProblemsShown] = useState(PROBLEMS_PAGE);
  const [notesShown, setNotesShown] = useState(PROBLEMS_PAGE);
  const counts = countBySeverity(diagnostics);
  const problems = diagnostics.filter((d) => d.severity !== 'info');
  const notes = diagnostics.filter((d) => d.severity === 'info');
  const row = (d: Diagnostic) => (
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
  );

  return (
    <section className="problems" aria-label="Problems" aria-busy={!current} data-open={open}>
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
          {problems.length === 0 && analysisError === null && (
            <li className="problems-empty">
              {current ? 'No problems in this project.' : 'Checking…'}
            </li>
          )}
          {problems.slice(0, problemsShown).map(row)}
          <ShowMore
            shown={problemsShown}
            total={problems.length}
            what="problems"
            onMore={() => {
              setProblemsShown(problemsShown + PROBLEMS_PAGE);
            }}
          />
          {notes.length > 0 && (
            <li>
              <button
                type="button"
                className="problem problems-notes"
                aria-expanded={notesOpen}
                onClick={() => {
                  setNotesOpen(!notesOpen);
                }}
              >
                <span className="problem-icon" data-severity="info">
                  <Icon name="info" size={13} />
                </span>
                <span className="problem-message">
                  {notesOpen ? 'Hide' : 'Show'} {notes.length}{' '}
                  {notes.length === 1 ? 'note' : 'notes'}
                </span>
              </button>
            </li>
          )}
          {notesOpen && notes.slice(0, notesShown).map(row)}
          {notesOpen && (
            <ShowMore
              shown={notesShown}
              total={notes.length}
              what="notes"
              onMore={() => {
                setNotesShown(notesShown + PROBLEMS_PAGE);
              }}
            />
          )}
        </ul>
      )}
    </section>
  );
}

/** "Show 500 more (12,345 not shown)" under a list cut at `shown` rows; nothing when none are cut. */
function ShowMore(props: { shown: number; total: number; what: string; onMore: () => void }) {
  const hidden = props.total - props.shown;
  if (hidden <= 0) return null;
  return (
    <li>
      <button type="button" className="problem problems-more" onClick={props.onMore}>
        <span className="problem-message">
          Show {Math.min(hidden, PROBLEMS_PAGE)} more {props.what} ({hidden.toLocaleString('en-US')}{' '}
          not shown)
        </span>
      </button>
    </li>
  );
}
