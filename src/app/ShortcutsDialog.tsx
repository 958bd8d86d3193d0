import { useAppStore } from '../state/useAppStore.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Kbd } from '../ui/Kbd.tsx';
import { SHORTCUTS } from './shortcuts.ts';

/** Lists the keyboard shortcuts; opened with "?" or the keyboard button in the header. */
export function ShortcutsDialog() {
  const open = useAppStore((s) => s.shortcutsOpen);
  const setShortcutsOpen = useAppStore((s) => s.setShortcutsOpen);
  return (
    <Dialog
      open={open}
      title="Keyboard shortcuts"
      onClose={() => {
        setShortcutsOpen(false);
      }}
    >
      <table className="shortcuts-table">
        <tbody>
          {SHORTCUTS.map(({ keys, action }) => (
            <tr key={keys}>
              <td>
                <Kbd keys={keys} />
              </td>
              <td>{action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="dialog-note">
        Separators between panes move with the arrow keys once focused; Tab reaches them.
      </p>
    </Dialog>
  );
}
