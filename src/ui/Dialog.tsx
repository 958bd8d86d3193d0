import type { ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';
import { IconButton } from './IconButton.tsx';
import { useDismissible } from './useDismissible.tsx';

/**
 * A modal dialog on the native `<dialog>` element: it traps focus, closes on Escape and gives
 * focus back to what had it when it closes.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Escape outside a text field goes through the shell's one rule: the innermost layer closes.
  useDismissible(open, onClose, true);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <IconButton icon="close" label="Close" onClick={onClose} />
      </div>
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}
