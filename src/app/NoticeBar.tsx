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
  if (error === null && deleted === null) return null;
  return (
    <div className="notices">
      {error !== null && (
        <div className="notice" data-kind="error" role="alert">
          <Icon name="alert" size={14} />
          <span>{error}</span>
          <IconButton icon="close" label="Dismiss" onClick={dismissError} />
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
