import type { SyntheticEvent } from 'react';
import { useState } from 'react';
import type { RunSettings } from '../../state/slices/simulationSlice.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { MOST_TOOL_ROUNDS, formatLevelBand, parseLevelBand } from '../../core/index.ts';
import { BudgetNotice } from './BudgetNotice.tsx';

/**
 * The next run's settings, and Run / Stop. `compact` (a run is on screen, whose report matters
 * more) shows them as one line, with a button that opens the fields.
 */
export function RunForm({ compact = false }: { compact?: boolean }) {
  const [editing, setEditing] = useState(false);
  const settings = useAppStore((s) => s.runSettings);
  const setSettings = useAppStore((s) => s.setRunSettings);
  const live = useAppStore((s) => s.currentRun?.live ?? false);
  const startRun = useAppStore((s) => s.startRun);
  const checking = useAppStore((s) => s.checkingProject);
  const cancelRun = useAppStore((s) => s.cancelRun);
  const fixedNow = useAppStore((s) => s.analysis?.model.now);
  const clock = fixedNow !== undefined && <FixedClock now={fixedNow} />;

  /**
   * A number field of the settings: past `max` it takes `max`; below `min`, or not a number, it
   * takes nothing. An
   * `optional` field (a budget) may be left empty, meaning none; `whole` rounds what is typed.
   */
  const numberField = (
    field: Exclude<keyof RunSettings, 'levels' | 'judgeDecides'>,
    label: string,
    {
      min = 1,
      max,
      step,
      whole = true,
      optional = false,
    }: { min?: number; max?: number; step?: number; whole?: boolean; optional?: boolean },
  ) => (
    <label className="run-field">
      <span>{label}</span>
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        placeholder={optional ? 'none' : undefined}
        value={settings[field] ?? ''}
        disabled={live}
        onChange={(event) => {
          const text = event.target.value;
          if (optional && text === '') {
            setSettings({ [field]: null });
            return;
          }
          // Past the most allowed is the most (typing 25 trials gives 20, not a silent no); below
          // the least is not taken, so the field can be cleared and typed again.
          const typed = whole ? Math.round(Number(text)) : Number(text);
          const value = Math.min(typed, max ?? Infinity);
          if (Number.isFinite(value) && value >= min) setSettings({ [field]: value });
        }}
      />
    </label>
  );

  const submit = (
    <>
      {live ? (
        <button type="button" className="button button-danger" onClick={cancelRun}>
          Stop
        </button>
      ) : (
        // Planned from the analysis of the current text, which may be on its way; a click meanwhile
        // does nothing, and the button keeps the focus.
        <button type="submit" className="button" aria-disabled={checking}>
          {checking ? 'Checking the project…' : 'Run scenarios'}
        </button>
      )}
    </>
  );
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!live && !checking) void startRun();
  };

  if (compact && !editing) {
    return (
      <form className="run-form run-form-compact" aria-label="Run settings" onSubmit={onSubmit}>
        <span className="run-form-summary" data-testid="run-settings-summary">
          {summarize(settings)}
        </span>
        {clock}
        <BudgetNotice />
        <button
          type="button"
          className="button button-quiet"
          aria-expanded={false}
          onClick={() => {
            setEditing(true);
          }}
        >
          Settings…
        </button>
        {submit}
      </form>
    );
  }

  return (
    <form className="run-form" aria-label="Run settings" onSubmit={onSubmit}>
      {numberField('trials', 'Trials', { max: 20 })}
      {numberField('concurrency', 'At once', { max: 32 })}
      {numberField('maxTurns', 'Max turns', { max: 50 })}
      {numberField('maxToolRounds', 'Tool calls in a row', { max: MOST_TOOL_ROUNDS })}
      {numberField('budgetDollars', 'Budget $', {
        min: 0,
        step: 0.1,
        whole: false,
        optional: true,
      })}
      {numberField('budgetTokens', 'Budget tokens', { step: 1000, optional: true })}
      {numberField('generated', 'Generate', { min: 0, max: 200 })}
      {settings.generated > 0 && numberField('seed', 'Seed', { max: 1_000_000 })}
      {settings.generated > 0 && <LevelsField disabled={live} />}
      {numberField('judgeRepeats', 'Judge asks', { max: 5 })}
      <label
        className="run-field run-field-check"
        title="With a judge model: its opinion decides the verdict of each policy that no guard, precondition, check or expectation covers, labelled “decided by a model”."
      >
        <input
          type="checkbox"
          checked={settings.judgeDecides}
          disabled={live}
          onChange={(event) => {
            setSettings({ judgeDecides: event.target.checked });
          }}
        />
        <span>Judge decides uncovered policies</span>
      </label>
      {clock}
      {submit}
      <BudgetNotice />
      {compact && (
        <button
          type="button"
          className="button button-quiet"
          aria-expanded={true}
          onClick={() => {
            setEditing(false);
          }}
        >
          Fold
        </button>
      )}
    </form>
  );
}

/** Says that the project fixes the time its runs see (database.yaml `now:`), and which. */
function FixedClock({ now }: { now: string }) {
  return (
    <span
      className="run-form-clock"
      data-testid="run-fixed-clock"
      title="database.yaml fixes now: every run of this project sees this time instead of the real one."
    >
      Runs see now as {now} (fixed by database.yaml)
    </span>
  );
}

/** The settings in one line, e.g. "2 trials · 2 at once · ≤10 turns · budget $1". */
function summarize(settings: RunSettings): string {
  const parts = [
    `${settings.trials} trial${settings.trials === 1 ? '' : 's'}`,
    `${settings.concurrency} at once`,
    `≤${settings.maxTurns} turns`,
    budgetText(settings),
  ];
  if (settings.generated > 0)
    parts.push(`${settings.generated} generated (${formatLevelBand(settings.levels)})`);
  return parts.join(' · ');
}

/** The budget in words: "budget $1", "budget 200,000 tokens", both, or "no budget". */
function budgetText(settings: RunSettings): string {
  const parts = [
    ...(settings.budgetDollars === null ? [] : [`$${settings.budgetDollars}`]),
    ...(settings.budgetTokens === null
      ? []
      : [`${settings.budgetTokens.toLocaleString('en-US')} tokens`]),
  ];
  return parts.length === 0 ? 'no budget' : `budget ${parts.join(' and ')}`;
}

/** The challenge band sampled combinations are drawn from, typed as "4-8". */
function LevelsField({ disabled }: { disabled: boolean }) {
  const levels = useAppStore((s) => s.runSettings.levels);
  const setSettings = useAppStore((s) => s.setRunSettings);
  const [text, setText] = useState(formatLevelBand(levels));
  const read = parseLevelBand(text);
  return (
    <label className="run-field">
      <span>Levels</span>
      <input
        value={text}
        disabled={disabled}
        aria-invalid={'problem' in read}
        title={
          'problem' in read
            ? read.problem
            : 'The challenge band of the sampled combinations, e.g. 4-8'
        }
        onChange={(event) => {
          setText(event.target.value);
          const next = parseLevelBand(event.target.value);
          if ('band' in next) setSettings({ levels: next.band });
        }}
      />
    </label>
  );
}
