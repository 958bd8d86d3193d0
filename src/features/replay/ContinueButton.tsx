import { useState } from 'react';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';

/**
 * Re-runs the rest of the dialogue from this agent turn with the project and models as they are
 * now; the new dialogue opens beside this one as it runs.
 */
export function ContinueButton({
  dialogue,
  turn,
  turnName,
}: {
  dialogue: string;
  turn: number;
  turnName: string;
}) {
  const store = useAppStoreApi();
  const run = useAppStore((s) => s.replayRunId);
  const busy = useAppStore((s) => s.currentRun?.live === true);
  const readOnly = useAppStore((s) => s.readOnly);
  const [asking, setAsking] = useState(false);
  if (run === null || readOnly) return null;

  const start = async () => {
    setAsking(true);
    // Show the new dialogue beside this one as soon as it starts.
    const stop = store.subscribe((state) => {
      const current = state.currentRun;
      const first = current?.events[0];
      if (!current || first?.type !== 'run-started') return;
      const source = first.source;
      if (source?.kind !== 'continued') return;
      if (source.run !== run || source.dialogue !== dialogue || source.turn !== turn) return;
      const started = current.events.find((e) => e.type === 'dialogue-started');
      if (started?.type !== 'dialogue-started') return;
      stop();
      void state.compareReplay({ run: current.id, dialogue: started.dialogue });
    });
    try {
      await store.getState().continueDialogue({ run, dialogue, turn });
    } finally {
      stop();
      setAsking(false);
    }
  };

  return (
    <button
      type="button"
      className="button button-quiet replay-small"
      disabled={busy || asking}
      title={`Re-run the rest of this dialogue from ${turnName}, with the project and the models as they are now`}
      onClick={(e) => {
        e.stopPropagation();
        void start();
      }}
    >
      Continue from here
    </button>
  );
}
