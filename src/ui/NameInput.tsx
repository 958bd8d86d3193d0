import { useRef, useState } from 'react';

/**
 * A text field for renaming something in place: it opens with the current name selected, Enter
 * or leaving the field saves, Escape cancels (without closing an enclosing dialog). It reports
 * once, however the editing ends.
 */
export function NameInput({
  initial,
  label,
  maxLength,
  onDone,
}: {
  initial: string;
  label: string;
  maxLength?: number;
  /** The typed name, or null when the user cancelled. */
  onDone: (name: string | null) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const finished = useRef(false);
  const finish = (name: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(name);
  };
  return (
    <input
      className="project-name-input"
      aria-label={label}
      value={draft}
      {...(maxLength === undefined ? {} : { maxLength })}
      autoFocus
      onFocus={(e) => {
        e.currentTarget.select();
      }}
      onChange={(e) => {
        setDraft(e.currentTarget.value);
      }}
      onBlur={() => {
        finish(draft);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish(draft);
        if (e.key === 'Escape') {
          e.stopPropagation();
          e.preventDefault();
          finish(null);
        }
      }}
    />
  );
}
