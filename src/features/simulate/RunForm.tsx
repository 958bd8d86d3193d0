import type { RunSettings } from '../../state/slices/simulationSlice.ts';
import { useAppStore } from '../../state/useAppStore.ts';

/** The next run's settings, and Run / Stop. */
export function RunForm() {
  const settings = useAppStore((s) => s.runSettings);
  const setSettings = useAppStore((s) => s.setRunSettings);
  const live = useAppStore((s) => s.currentRun?.live ?? false);
  const startRun = useAppStore((s) => s.startRun);
  const cancelRun = useAppStore((s) => s.cancelRun);

  const number = (
    field: Exclude<keyof RunSettings, 'budgetDollars'>,
    label: string,
    max: number,
  ) => (
    <label className="run-field">
      <span>{label}</span>
      <input
        type="number"
        min={1}
        max={max}
        value={settings[field]}
        disabled={live}
        onChange={(event) => {
          const value = Math.round(Number(event.target.value));
          if (Number.isFinite(value) && value >= 1 && value <= max) setSettings({ [field]: value });
        }}
      />
    </label>
  );

  return (
    <form
      className="run-form"
      aria-label="Run settings"
      onSubmit={(event) => {
        event.preventDefault();
        if (!live) void startRun();
      }}
    >
      {number('trials', 'Trials', 20)}
      {number('concurrency', 'At once', 32)}
      {number('maxTurns', 'Max turns', 50)}
      <label className="run-field">
        <span>Budget $</span>
        <input
          type="number"
          min={0}
          step={0.1}
          placeholder="none"
          value={settings.budgetDollars ?? ''}
          disabled={live}
          onChange={(event) => {
            const text = event.target.value;
            const value = Number(text);
            if (text === '') setSettings({ budgetDollars: null });
            else if (Number.isFinite(value) && value >= 0) setSettings({ budgetDollars: value });
          }}
        />
      </label>
      {live ? (
        <button type="button" className="button button-danger" onClick={cancelRun}>
          Stop
        </button>
      ) : (
        <button type="submit" className="button">
          Run scenarios
        </button>
      )}
    </form>
  );
}
