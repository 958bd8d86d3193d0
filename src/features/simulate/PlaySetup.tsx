import { personaOf } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';

/** Picks the person's seat and the scenario, and starts a game. */
export function PlaySetup() {
  const settings = useAppStore((s) => s.playSettings);
  const setSettings = useAppStore((s) => s.setPlaySettings);
  const startPlay = useAppStore((s) => s.startPlay);
  const checking = useAppStore((s) => s.checkingProject);
  const scenarios = useAppStore((s) => s.analysis?.model.scenarios);
  const chosen = scenarios?.find((s) => s.id === settings.scenario);
  return (
    <form
      className="play-setup"
      aria-label="Play settings"
      onSubmit={(event) => {
        event.preventDefault();
        if (!checking) void startPlay();
      }}
    >
      <p className="simulate-faint">
        Take one side of a dialogue yourself and let a model play the other. Guard rules decide
        every tool call as it is made and the checks of rules.yaml are judged as you go, so this is
        the quickest way to poke at a policy by hand. Each game is saved with the runs.
      </p>
      <fieldset className="play-seat">
        <legend>Your seat</legend>
        <label>
          <input
            type="radio"
            name="seat"
            checked={settings.seat === 'user'}
            onChange={() => {
              setSettings({ seat: 'user' });
            }}
          />
          The customer <span className="simulate-faint">(a model plays the agent under test)</span>
        </label>
        <label>
          <input
            type="radio"
            name="seat"
            checked={settings.seat === 'agent'}
            onChange={() => {
              setSettings({ seat: 'agent' });
            }}
          />
          The agent <span className="simulate-faint">(a model plays the customer)</span>
        </label>
      </fieldset>
      <label className="play-field">
        <span>Scenario</span>
        <select
          value={settings.scenario ?? ''}
          onChange={(event) => {
            setSettings({ scenario: event.target.value === '' ? null : event.target.value });
          }}
        >
          <option value="">Free play (the seed data only)</option>
          {settings.scenario !== null && !chosen && (
            <option value={settings.scenario}>
              {settings.scenario} (no longer in scenarios.yaml)
            </option>
          )}
          {scenarios?.map((s) => (
            <option key={s.id} value={s.id}>
              {s.id}: {clip(s.goal)}
            </option>
          ))}
        </select>
      </label>
      {settings.scenario === null && settings.seat === 'agent' && (
        <label className="play-field">
          <span>What the customer wants</span>
          <textarea
            rows={2}
            value={settings.goal}
            placeholder="e.g. Cancel my booking ZFA04Y and get my money back."
            onChange={(event) => {
              setSettings({ goal: event.target.value });
            }}
          />
        </label>
      )}
      {chosen && (
        <p className="simulate-faint">
          Policies in play: {chosen.policies.join(', ') || 'none named'}. {personaOf(chosen)}
        </p>
      )}
      <div>
        <button type="submit" className="button" aria-disabled={checking}>
          {checking ? 'Checking the project…' : 'Start playing'}
        </button>
      </div>
    </form>
  );
}

function clip(text: string): string {
  return text.length > 70 ? `${text.slice(0, 69)}…` : text;
}
