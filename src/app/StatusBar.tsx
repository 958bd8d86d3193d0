import { version } from '../../package.json';
import { countBySeverity } from '../core/index.ts';
import { useAppStore, useSelectors } from '../state/useAppStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { Kbd } from '../ui/Kbd.tsx';

/** The bottom bar: where the project lives, storage problems, the shortcuts hint, the version. */
export function StatusBar() {
  const storageWarning = useAppStore((s) => s.storageWarning);
  const saveStatus = useAppStore((s) => s.saveStatus);
  const dirty = useAppStore(useSelectors().selectDirtyFiles).length > 0;
  const diagnostics = useAppStore((s) => s.analysis?.diagnostics);
  const counts = diagnostics ? countBySeverity(diagnostics) : null;
  const saveText =
    saveStatus === 'error'
      ? 'Not saved'
      : saveStatus === 'saving' || dirty
        ? 'Saving…'
        : 'Saved on this device';
  return (
    <footer className="status-bar">
      <span className="status-item" data-save={saveStatus} role="status" aria-label="Save status">
        <Icon name={saveStatus === 'error' ? 'alert' : 'info'} size={13} />
        {saveText}
      </span>
      {counts && (
        <span className="status-item" aria-label="Problem counts">
          {plural(counts.error, 'error')} · {plural(counts.warning, 'warning')}
        </span>
      )}
      {storageWarning !== null && (
        <span className="status-item status-warning" role="status">
          <Icon name="alert" size={13} />
          {storageWarning}
        </span>
      )}
      <span className="status-spacer" />
      <span className="status-item">
        <Kbd keys="?" /> shortcuts
      </span>
      <span className="status-item">PolicyLab {version}</span>
    </footer>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
