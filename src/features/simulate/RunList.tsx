import { useAppStore } from '../../state/useAppStore.ts';

/** The project's saved runs: open one, or delete it. */
export function RunList() {
  const runs = useAppStore((s) => s.runList);
  const current = useAppStore((s) => s.currentRun);
  const openRun = useAppStore((s) => s.openRun);
  const deleteRun = useAppStore((s) => s.deleteRun);
  if (runs.length === 0) return null;
  return (
    <section className="run-list" aria-label="Saved runs">
      <h3 className="dialog-section">Saved runs</h3>
      <ul>
        {runs.map((run) => (
          <li key={run.id} data-current={current?.id === run.id}>
            <button
              type="button"
              className="run-open"
              disabled={current?.live}
              onClick={() => void openRun(run.id)}
            >
              <span>{run.title}</span>
              <span className="simulate-faint">{new Date(run.createdAt).toLocaleString()}</span>
            </button>
            <button
              type="button"
              className="button button-quiet"
              aria-label={`Delete run ${run.title}`}
              disabled={current?.live === true && current.id === run.id}
              onClick={() => void deleteRun(run.id)}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
