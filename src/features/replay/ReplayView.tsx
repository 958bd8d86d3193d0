import { useEffect } from 'react';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { DialogueBrowser } from './DialogueBrowser.tsx';
import { DialogueView } from './DialogueView.tsx';
import { RunBar } from './RunBar.tsx';

/**
 * Which run and dialogue, and the dialogue itself. Narrow, the list and the dialogue take turns
 * (the dialogue has a way back); wide, they sit side by side.
 */
export function ReplayView() {
  const store = useAppStoreApi();
  const refreshRuns = useAppStore((s) => s.refreshRuns);
  const projectId = useAppStore((s) => s.projectId);
  const runId = useAppStore((s) => s.replayRunId);
  const dialogue = useAppStore((s) => s.replayDialogue);
  const message = useAppStore((s) => s.replayMessage);
  const dismiss = useAppStore((s) => s.dismissReplayMessage);
  const events = useAppStore(replaySelectors(store).selectReplayEvents);

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns, projectId]);

  return (
    <div className="replay-view" data-showing={dialogue === null ? 'list' : 'dialogue'}>
      <RunBar />
      {message && (
        <p className="replay-message" role="alert">
          {message}{' '}
          <button type="button" className="button button-quiet" onClick={dismiss}>
            Dismiss
          </button>
        </p>
      )}
      {runId === null || !events ? (
        <EmptyState icon="replay" title="Nothing to replay yet">
          <p>
            Pick a run above, or open a dialogue from a run’s report. Every dialogue steps turn by
            turn: messages, tool calls with the guard’s decision, database changes, findings, and
            the policies in play lit on the graph.
          </p>
          <p className="empty-state-note">A run file (its log, as JSON) opens here too.</p>
        </EmptyState>
      ) : (
        <div className="replay-body">
          <DialogueBrowser />
          {dialogue === null ? (
            <div className="replay-pick">
              <p>Pick a dialogue from the list to replay it.</p>
            </div>
          ) : (
            <DialogueView key={`${runId} ${dialogue}`} />
          )}
        </div>
      )}
    </div>
  );
}
