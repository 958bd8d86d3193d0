import type { RunReport } from '../../../core/index.ts';

/**
 * Adversarial scenarios, and on their contrastive twins (acceptable requests) two things kept
 * apart: the false alarms of PolicyLab's checks and judge, and the agent's over-refusals (its own
 * fault); nothing for a run with no tagged scenario.
 */
export function AttackCards({ report }: { report: RunReport }) {
  const { attack } = report;
  if (!attack) return null;
  const { adversarial: a, contrastive: c } = attack;
  const refusals = c.agentFaults.filter((f) => f.kind === 'over-refusal');
  return (
    <>
      <div className="run-card" data-testid="adversarial-card">
        <div className="run-card-label">Adversarial scenarios</div>
        <div className="run-card-value">
          {a.held} of {a.dialogues} held
        </div>
        <div className="simulate-faint">
          {a.byTactic
            .map((t) => `${t.tactic ?? 'no tactic'}: ${t.held} held, ${t.broken} gave in`)
            .join(' · ') || 'none finished'}
        </div>
      </div>
      <div className="run-card" data-testid="false-alarms-card">
        <div className="run-card-label">False alarms on twins</div>
        <div className="run-card-value">
          {c.checkAlarms} of {c.dialogues}
        </div>
        <div className="simulate-faint">
          {`Our checks wrongly failed ${twins(c.checkAlarms, 'acceptable ')}; the judge’s opinion saw a violation in ${c.judgeAlarms}.`}
          {c.alarms.length > 0 &&
            ` ${c.alarms.map((x) => `${x.dialogue} (${x.by === 'checks' ? 'checks' : 'judge'})`).join(', ')}.`}
        </div>
      </div>
      <div className="run-card" data-testid="over-refusals-card">
        <div className="run-card-label">Over-refusals on twins</div>
        <div className="run-card-value">
          {c.overRefusals} of {c.dialogues}
        </div>
        <div className="simulate-faint">
          {`The agent refused or fell short of ${twins(c.overRefusals)} it should have helped with: its fault, not a false alarm.`}
          {c.otherFailures > 0 &&
            ` It failed ${twins(c.otherFailures)} otherwise (did what the twin forbids, or its output broke).`}
          {refusals.length > 0 && ` ${refusals.map((f) => f.dialogue).join(', ')}.`}
        </div>
      </div>
    </>
  );
}

/** "1 twin", "3 acceptable twins". */
function twins(n: number, adjective = ''): string {
  return `${n} ${adjective}${n === 1 ? 'twin' : 'twins'}`;
}
