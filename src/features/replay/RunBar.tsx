import { useRef } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';

/** Picks the run to replay, from this project's saved runs (Play games included), or a file. */
export function RunBar() {
  const runs = useAppStore((s) => s.runList);
  const runId = useAppStore((s) => s.replayRunId);
  const loadedTitle = useAppStore((s) => (s.replayLog?.id === runId ? s.replayLog.title : null));
  const currentTitle = useAppStore((s) => (s.currentRun?.id === runId ? s.currentRun.title : null));
  const openReplay = useAppStore((s) => s.openReplay);
  const importRunFile = useAppStore((s) => s.importRunFile);
  const file = useRef<HTMLInputElement>(null);
  const listed = runId === null || runs.some((r) => r.id === runId);

  return (
    <div className="replay-runbar">
      <label className="replay-field">
        <span>Run</span>
        <select
          value={runId ?? ''}
          onChange={(e) => {
            if (e.target.value !== '') void openReplay({ run: e.target.value });
          }}
        >
          <option value="" disabled>
            {runs.length === 0 ? 'No saved runs yet' : 'Choose a run…'}
          </option>
          {!listed && <option value={runId}>{loadedTitle ?? currentTitle ?? runId}</option>}
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title} · {new Date(r.createdAt).toLocaleString()}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button button-quiet" onClick={() => file.current?.click()}>
        Open a run file…
      </button>
      <input
        ref={file}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="replay-import"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (!chosen) return;
          void chosen.text().then((text) => importRunFile(chosen.name, text));
        }}
      />
    </div>
  );
}
