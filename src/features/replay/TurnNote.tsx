import { useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';

/** A person's note on a turn: shown under the message, written and removed in place. */
export function TurnNote({ turn, note }: { turn: number; note: string | undefined }) {
  const noteReplay = useAppStore((s) => s.noteReplay);
  const readOnly = useAppStore((s) => s.readOnly);
  const [draft, setDraft] = useState<string | null>(null);
  if (readOnly) return note === undefined ? null : <NoteText note={note} />;
  if (draft !== null) {
    return (
      <form
        className="replay-note-form"
        onClick={(e) => {
          e.stopPropagation();
        }}
        onSubmit={(e) => {
          e.preventDefault();
          void noteReplay(turn, draft);
          setDraft(null);
        }}
      >
        <textarea
          aria-label="Your note on this turn"
          value={draft}
          rows={2}
          autoFocus
          onChange={(e) => {
            setDraft(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setDraft(null);
            }
          }}
        />
        <button type="submit" className="button">
          Save note
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            setDraft(null);
          }}
        >
          Cancel
        </button>
      </form>
    );
  }
  return (
    <>
      {note !== undefined && <NoteText note={note} />}
      <button
        type="button"
        className="button button-quiet replay-small"
        onClick={(e) => {
          e.stopPropagation();
          setDraft(note ?? '');
        }}
      >
        {note === undefined ? 'Add a note' : 'Edit note'}
      </button>
      {note !== undefined && (
        <button
          type="button"
          className="button button-quiet replay-small"
          onClick={(e) => {
            e.stopPropagation();
            void noteReplay(turn, '');
          }}
        >
          Remove note
        </button>
      )}
    </>
  );
}

function NoteText({ note }: { note: string }) {
  return (
    <p className="replay-note">
      <strong>Note:</strong> {note}
    </p>
  );
}
