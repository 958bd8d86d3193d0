import { useAppStore } from '../state/useAppStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { IconButton } from '../ui/IconButton.tsx';

/** A line under the header for what the user must know now: a failed save, a deletion to undo. */
export function NoticeBar() {
  const error = useAppStore((s) => s.libraryError);
  const deleted = useAppStore((s) => s.deleted);
  const dismissError = useAppStore((s) => s.dismissLibraryError);
  const undoDelete = useAppStore((s) => s.undoDelete);
  const forgetDeleted = useAppStore((s) => s.forgetDeleted);
  const arrival = useAppStore((s) => s.arrival);
  const undoArrival = useAppStore((s) => s.undoArrival);
  const dismissArrival = useAppStore((s) => s.dismissArrival);
  const shareNotice = useAppStore((s) => s.shareNotice);
  const dismissShareNotice = useAppStore((s) => s.dismissShareNotice);
  const openProject = useAppStore((s) => s.openProject);
  const unsaved = useAppStore((s) => s.unsavedNotice);
  const dismissUnsaved = useAppStore((s) => s.dismissUnsavedNotice);
  const hasImportReport = useAppStore((s) => s.importReport !== null);
  const showImportReport = useAppStore((s) => s.showImportReport);
  if (
    error === null &&
    deleted === null &&
    arrival === null &&
    shareNotice === null &&
    unsaved === null
  ) {
    return null;
  }
  return (
    <div className="notices">
      {error !== null && (
        <div className="notice" data-kind="error" role="alert">
          <Icon name="alert" size={14} />
          <span>{error}</span>
          <IconButton icon="close" label="Dismiss" onClick={dismissError} />
        </div>
      )}
      {unsaved !== null && (
        <div
          className="notice"
          data-kind={unsaved.kind === 'conflict' ? 'error' : undefined}
          role={unsaved.kind === 'conflict' ? 'alert' : 'status'}
          data-testid="unsaved-notice"
        >
          {unsaved.kind === 'conflict' && <Icon name="alert" size={14} />}
          <span>{unsaved.message}</span>
          {unsaved.open !== undefined && (
            <button
              type="button"
              className="link"
              onClick={() => void openProject(unsaved.open?.id ?? '')}
            >
              Open “{unsaved.open.name}”
            </button>
          )}
          <IconButton icon="close" label="Dismiss" onClick={dismissUnsaved} />
        </div>
      )}
      {shareNotice !== null && (
        <div
          className="notice"
          data-kind={shareNotice.kind === 'error' ? 'error' : undefined}
          role="alert"
          data-testid="share-notice"
        >
          {shareNotice.kind === 'error' && <Icon name="alert" size={14} />}
          <span>{shareNotice.message}</span>
          {shareNotice.projectId !== undefined && (
            <button
              type="button"
              className="link"
              onClick={() => void openProject(shareNotice.projectId ?? '')}
            >
              Open it
            </button>
          )}
          <IconButton icon="close" label="Dismiss" onClick={dismissShareNotice} />
        </div>
      )}
      {arrival !== null && (
        <div className="notice" role="status" data-testid="arrival">
          <span>
            Opened “{arrival.name}” from {arrival.from === 'link' ? 'a link' : 'a file'}, as a new
            project; your own work is unchanged.
            {arrival.notes.length > 0 && ` ${arrival.notes.map((n) => n.message).join(' ')}`}
          </span>
          {hasImportReport && (
            <button
              type="button"
              className="link"
              onClick={() => {
                showImportReport(true);
              }}
            >
              What was not carried
            </button>
          )}
          <button type="button" className="link" onClick={() => void undoArrival()}>
            Undo
          </button>
          <IconButton icon="close" label="Dismiss" onClick={dismissArrival} />
        </div>
      )}
      {deleted !== null && (
        <div className="notice" role="status">
          <span>Deleted “{deleted.name}”.</span>
          <button type="button" className="link" onClick={() => void undoDelete()}>
            Undo
          </button>
          <IconButton icon="close" label="Dismiss" onClick={forgetDeleted} />
        </div>
      )}
    </div>
  );
}
