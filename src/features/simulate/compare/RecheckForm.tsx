import { useState } from 'react';
import { useAppStore } from '../../../state/useAppStore.ts';

/** Judges a saved run again against today's project (no model is called) and compares the two. */
export function RecheckForm() {
  const runList = useAppStore((s) => s.runList);
  const busy = useAppStore((s) => s.rechecking);
  const recheck = useAppStore((s) => s.recheckAgainstProject);
  const readOnly = useAppStore((s) => s.readOnly);
  const [chosen, setChosen] = useState('');
  const run = chosen || (runList[0]?.id ?? '');
  if (readOnly || runList.length === 0) return null;
  return (
    <form
      className="compare-recheck"
      aria-label="Re-check a run against today’s project"
      onSubmit={(e) => {
        e.preventDefault();
        if (run) void recheck(run);
      }}
    >
      <label>
        <span>Re-check a run against today’s project</span>
        <select
          value={run}
          onChange={(e) => {
            setChosen(e.target.value);
          }}
        >
          {runList.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={busy || !run}>
        {busy ? 'Re-checking…' : 'Re-check'}
      </button>
      <p className="simulate-faint">
        Today’s checks and scenario expectations judge the run’s dialogues again, without calling a
        model; guard rules shaped the dialogues and are not re-run. The result is saved as a new run
        and compared with its source.
      </p>
    </form>
  );
}
