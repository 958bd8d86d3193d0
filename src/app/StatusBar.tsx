import { version } from '../../package.json';
import { useAppStore } from '../state/useAppStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { Kbd } from '../ui/Kbd.tsx';

/** The bottom bar: where the project lives, storage problems, the shortcuts hint, the version. */
export function StatusBar() {
  const storageWarning = useAppStore((s) => s.storageWarning);
  return (
    <footer className="status-bar">
      <span className="status-item" title="Saving projects in the browser is not built yet">
        <Icon name="info" size={13} />
        Kept in this tab only
      </span>
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
