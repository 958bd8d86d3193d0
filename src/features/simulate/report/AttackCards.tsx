import type { RunReport } from '../../../core/index.ts';

/**
 * Adversarial scenarios and false alarms on their contrastive twins, as two report cards kept
 * apart; nothing for a run with no tagged scenario.
 */
export function AttackCards({ report }: { report: RunReport }) {
  const { attack } = report;
  if (!attack) return null;
  const { adversarial: a, contrastive: c } = attack;
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
          {`checks failed ${c.checkAlarms} acceptable twin(s); the judge’s opinion saw a violation in ${c.judgeAlarms}.`}
          {c.alarms.length > 0 &&
            ` ${c.alarms.map((x) => `${x.dialogue} (${x.by === 'checks' ? 'checks' : 'judge'})`).join(', ')}.`}
        </div>
      </div>
    </>
  );
}
