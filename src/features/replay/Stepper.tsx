import type { Replay, ReplayStep } from '../../core/index.ts';
import { nextStep } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { isCall, isFinding } from './steps.ts';

/** What a step is, in a few words, for the scrubber's value text. */
export function stepName(step: ReplayStep): string {
  switch (step.kind) {
    case 'message':
      return step.message?.speaker === 'agent'
        ? `the agent’s reply ${step.message.nth}`
        : `the customer’s message ${step.message?.nth ?? ''}`;
    case 'call': {
      const tool = step.call?.tool ?? 'a tool';
      if (step.call?.by === 'user') return `the customer’s own call to ${tool}`;
      if (step.call?.by === 'setup') return `the setup’s call to ${tool}`;
      return `a call to ${tool}`;
    }
    case 'fault':
      return `a failed call of the ${step.fault?.role ?? ''} model`;
    case 'ending':
      return 'the ending';
  }
}

/** The timeline: a scrubber over the steps, step buttons, and jumps to findings and calls. */
export function Stepper({ replay, step }: { replay: Replay; step: number }) {
  const setStep = useAppStore((s) => s.setReplayStep);
  const last = replay.steps.length - 1;
  const current = replay.steps[step];
  const nextFinding = nextStep(replay, step, 1, isFinding);
  const nextCall = nextStep(replay, step, 1, isCall);
  if (!current) return <p className="replay-faint">This dialogue has no steps yet.</p>;
  return (
    <div className="replay-stepper" role="group" aria-label="Steps">
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          setStep(0);
        }}
        disabled={step === 0}
        aria-label="First step"
      >
        First
      </button>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          setStep(step - 1);
        }}
        disabled={step === 0}
        aria-label="Previous step"
      >
        ◀
      </button>
      <input
        type="range"
        min={0}
        max={Math.max(0, last)}
        value={step}
        aria-label="Step"
        aria-valuetext={`Step ${step + 1} of ${last + 1}: ${stepName(current)}`}
        onChange={(e) => {
          setStep(Number(e.target.value));
        }}
        className="replay-scrubber"
        style={{ ['--marks' as string]: markGradient(replay) }}
      />
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          setStep(step + 1);
        }}
        disabled={step >= last}
        aria-label="Next step"
      >
        ▶
      </button>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          setStep(last);
        }}
        disabled={step >= last}
        aria-label="Last step"
      >
        Last
      </button>
      <span className="replay-step-count" data-testid="replay-step">
        Step {step + 1} of {last + 1}
      </span>
      <button
        type="button"
        className="button button-quiet"
        disabled={nextFinding === undefined}
        onClick={() => {
          if (nextFinding !== undefined) setStep(nextFinding);
        }}
        title="Next finding (n)"
      >
        Next finding
      </button>
      <button
        type="button"
        className="button button-quiet"
        disabled={nextCall === undefined}
        onClick={() => {
          if (nextCall !== undefined) setStep(nextCall);
        }}
        title="Next tool call (c)"
      >
        Next call
      </button>
    </div>
  );
}

/** Ticks on the scrubber's track where policies broke (red) and findings are pinned. */
function markGradient(replay: Replay): string {
  const n = replay.steps.length;
  if (n < 2) return 'none';
  const ticks = replay.steps.flatMap((s) => {
    if (!isFinding(s)) return [];
    const at = (s.index / (n - 1)) * 100;
    const colour = s.breached.length > 0 ? 'var(--danger)' : 'var(--text-faint)';
    const from = Math.max(0, at - 0.6);
    const to = Math.min(100, at + 0.6);
    return [`transparent ${from}%`, `${colour} ${from}%`, `${colour} ${to}%`, `transparent ${to}%`];
  });
  return ticks.length === 0
    ? 'none'
    : `linear-gradient(90deg, transparent 0%, ${ticks.join(', ')}, transparent 100%)`;
}
