import { useMemo, useState } from 'react';
import type { FileDiff, ProjectChanges } from '../../../core/index.ts';
import { fileChangeSummary, projectChanges, unifiedDiff } from '../../../core/index.ts';
import type { CompareSide } from '../../../state/slices/compareSlice.ts';
import { Dialog } from '../../../ui/Dialog.tsx';
import { DiffHunkTable } from '../../../ui/DiffHunk.tsx';
import { downloadFile, fileStem } from '../../../ui/download.ts';

const STATUS_WORDS: Record<FileDiff['status'], string> = {
  added: 'only after',
  removed: 'only before',
  changed: 'changed',
};

/**
 * Whether the two runs judged the same project files, and when not, which files changed, with
 * their line diff one click away.
 */
export function ProjectFiles({ before, after }: { before: CompareSide; after: CompareSide }) {
  const changes = useMemo(
    () => projectChanges(before.events, after.events),
    [before.events, after.events],
  );
  const [open, setOpen] = useState(false);
  if (changes.kind === 'same') return <p>Both runs judged the same project files.</p>;
  if (changes.kind === 'unknown')
    return (
      <p>
        The project files differ between the runs (their content hashes do not match).{' '}
        <span className="simulate-faint">{changes.reasons.join(' ')}</span>
      </p>
    );
  return (
    <>
      <p className="compare-files">
        {changes.files.length === 0
          ? 'The runs’ project hashes differ, but the files they recorded are the same.'
          : `The project files differ: ${changes.files.map(fileChangeSummary).join(', ')}.`}{' '}
        {changes.files.length > 0 && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setOpen(true);
            }}
          >
            Show the changes
          </button>
        )}
      </p>
      {open && (
        <FileDiffDialog
          changes={changes}
          before={before.title}
          after={after.title}
          onClose={() => {
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

/** The files' line diffs, file by file, with a download of the whole as a patch. */
function FileDiffDialog({
  changes,
  before,
  after,
  onClose,
}: {
  changes: Extract<ProjectChanges, { kind: 'changed' }>;
  before: string;
  after: string;
  onClose: () => void;
}) {
  return (
    <Dialog open title="Project files, before → after" onClose={onClose} wide>
      <p className="file-diff-runs">
        <span>Before: {before}</span>
        <span>After: {after}</span>
        <button
          type="button"
          onClick={() => {
            downloadFile(
              unifiedDiff(changes.files),
              `${fileStem(after, 'run')}-changes.diff`,
              'text/x-diff',
            );
          }}
        >
          Download as a patch
        </button>
      </p>
      {changes.files.map((d) => (
        <section key={d.file} className="file-diff" aria-label={`Changes to ${d.file}`}>
          <h3>
            {d.file}{' '}
            <span className="simulate-faint">
              {STATUS_WORDS[d.status]} · {d.added} line{d.added === 1 ? '' : 's'} added, {d.removed}{' '}
              removed
            </span>
          </h3>
          {d.coarse && (
            <p className="simulate-faint">
              Too much changed to match line by line: the changed part is shown as removed, then
              added.
            </p>
          )}
          {d.hunks.length === 0 && (
            <p className="simulate-faint">Only line endings or a final line break differ.</p>
          )}
          {d.hunks.map((h) => (
            <DiffHunkTable key={`${h.beforeStart}-${h.afterStart}`} hunk={h} />
          ))}
        </section>
      ))}
    </Dialog>
  );
}
