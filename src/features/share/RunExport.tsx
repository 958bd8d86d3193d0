import { gzipLog } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { downloadFile, fileStem } from '../../ui/download.ts';

/**
 * The run open in Replay (or on screen in Simulate), as its log compressed: imported again
 * anywhere, it replays and reports the same.
 */
export function RunExport() {
  const store = useAppStoreApi();
  const replayed = useAppStore(replaySelectors(store).selectReplayEvents);
  const replayTitle = useAppStore((s) =>
    s.replayLog?.id === s.replayRunId ? s.replayLog.title : undefined,
  );
  const current = useAppStore((s) => s.currentRun);
  const events = replayed ?? current?.events;
  const title = (replayed ? replayTitle : current?.title) ?? 'run';
  return (
    <section aria-labelledby="share-run-title">
      <h3 id="share-run-title">Runs</h3>
      {events && events.length > 0 ? (
        <div className="share-row">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              downloadFile(
                gzipLog(events),
                `${fileStem(title, 'run')}.json.gz`,
                'application/gzip',
              );
            }}
          >
            Download the run’s log (.json.gz)
          </button>
          <span className="share-faint">
            “{title}”: opened anywhere, it replays and reports the same.
          </span>
        </div>
      ) : (
        <p className="share-faint">Open a run in Replay or Simulate to pass it on as a file.</p>
      )}
    </section>
  );
}
