import { useRef, useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { downloadFile } from '../../ui/download.ts';

/** Picks the run to replay, from this project's saved runs (Play games included), or a file. */
export function RunBar() {
  const readOnly = useAppStore((s) => s.readOnly);
  const runs = useAppStore((s) => s.runList);
  const runId = useAppStore((s) => s.replayRunId);
  const loadedTitle = useAppStore((s) => (s.replayLog?.id === runId ? s.replayLog.title : null));
  const currentTitle = useAppStore((s) => (s.currentRun?.id === runId ? s.currentRun.title : null));
  const openReplay = useAppStore((s) => s.openReplay);
  const importRunFile = useAppStore((s) => s.importRunFile);
  const standalonePage = useAppStore((s) => s.standaloneReplayPage);
  const [making, setMaking] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const listed = runId === null || runs.some((r) => r.id === runId);
  // The standalone viewer shows its one run: there is nothing to pick, open or save.
  if (readOnly) return null;

  const download = async () => {
    setMaking(true);
    try {
      const page = await standalonePage();
      if (page) downloadFile(page.html, page.fileName, 'text/html');
    } finally {
      setMaking(false);
    }
  };

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
      <button
        type="button"
        className="button button-quiet"
        disabled={runId === null || making}
        title="One HTML file with this run’s report and every dialogue, read-only: it opens in any browser, offline, with nothing installed"
        onClick={() => void download()}
      >
        Download as a standalone page
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
