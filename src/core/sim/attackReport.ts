import { ADVERSARIAL_TAG, CONTRASTIVE_TAG } from '../format/attackTags.ts';
import type { SimScenario } from './events.ts';
import type { DialogueReport } from './reportTypes.ts';

/*
 * Adversarial scenarios and their contrastive twins in a run's report (docs/format.md,
 * "Adversarial scenarios and contrastive twins"), kept apart from each other: the adversarial
 * ones say how often the agent held to its policies under each tactic; the twins, acceptable by
 * construction, say how often the checks or the judge cried wolf.
 */

/** How the adversarial scenarios of one tactic went, over their finished dialogues. */
export interface TacticResult {
  /** `null` for adversarial scenarios that name no tactic. */
  readonly tactic: string | null;
  /** The agent held: the dialogue passed. */
  readonly held: number;
  /** The agent gave in: the dialogue failed. */
  readonly broken: number;
  /** Of all its finished dialogues, how many the judge said broke a policy (its opinion). */
  readonly judgeViolations: number;
}

/** A failing verdict, or a judge's violation, on a contrastive twin: a false alarm. */
export interface FalseAlarm {
  readonly dialogue: string;
  readonly scenario: string;
  /** The adversarial scenario it is the twin of, when it names one. */
  readonly twinOf: string | null;
  /** `checks`: the deterministic verdict failed; `judge`: the judge model said a policy was broken. */
  readonly by: 'checks' | 'judge';
  /** What raised it: the breaches' or the judge's policies. */
  readonly policies: readonly string[];
  readonly detail: string;
}

/** The attack part of a run's report; absent from a run with no tagged scenario. */
export interface AttackReport {
  readonly adversarial: {
    readonly dialogues: number;
    readonly held: number;
    readonly broken: number;
    readonly byTactic: readonly TacticResult[];
  };
  readonly contrastive: {
    /** Finished dialogues of contrastive twins (errors, suspect and running ones left out). */
    readonly dialogues: number;
    /** Dialogues whose deterministic verdict failed: false alarms of the checks. */
    readonly checkAlarms: number;
    /** Dialogues the judge said broke a policy: false alarms of the judge (an opinion). */
    readonly judgeAlarms: number;
    /** Each false alarm, by dialogue; checks before the judge. */
    readonly alarms: readonly FalseAlarm[];
  };
}

/**
 * Folds the report's finished dialogues (`pass` or `fail`) of tagged scenarios into the attack
 * report: adversarial ones by tactic, contrastive twins as false alarms. Undefined when no
 * dialogue is of a scenario tagged adversarial or contrastive.
 */
export function attackReportOf(
  dialogues: readonly DialogueReport[],
  scenarioOf: (id: string) => SimScenario | undefined,
): AttackReport | undefined {
  const tactics = new Map<string | null, { held: number; broken: number; judge: number }>();
  const alarms: FalseAlarm[] = [];
  let adversarial = 0;
  let contrastive = 0;
  let tagged = false;
  let checkAlarms = 0;
  let judgeAlarms = 0;
  for (const d of dialogues) {
    const scenario = scenarioOf(d.scenario);
    const tags = scenario?.tags ?? [];
    const isAdversarial = tags.includes(ADVERSARIAL_TAG);
    const isTwin = tags.includes(CONTRASTIVE_TAG);
    tagged ||= isAdversarial || isTwin;
    if (d.verdict !== 'pass' && d.verdict !== 'fail') continue;
    const judged = [...new Set(d.judgeViolations.map((j) => j.policy))];
    if (isAdversarial) {
      adversarial++;
      const key = scenario?.tactic ?? null;
      const t = tactics.get(key) ?? { held: 0, broken: 0, judge: 0 };
      if (d.verdict === 'pass') t.held++;
      else t.broken++;
      if (judged.length > 0) t.judge++;
      tactics.set(key, t);
    } else if (isTwin) {
      contrastive++;
      const base = { dialogue: d.dialogue, scenario: d.scenario, twinOf: scenario?.twinOf ?? null };
      if (d.verdict === 'fail') {
        checkAlarms++;
        alarms.push({
          ...base,
          by: 'checks',
          policies: [...new Set(d.breaches.map((b) => b.policy ?? 'unattributed'))],
          detail: d.breaches.map((b) => b.detail).join(' '),
        });
      }
      if (judged.length > 0) {
        judgeAlarms++;
        alarms.push({
          ...base,
          by: 'judge',
          policies: judged,
          detail: d.judgeViolations.map((j) => j.reason).join(' '),
        });
      }
    }
  }
  if (!tagged) return undefined;
  const byTactic = [...tactics]
    .map(([tactic, t]) => ({ tactic, held: t.held, broken: t.broken, judgeViolations: t.judge }))
    .sort((a, b) => (a.tactic ?? '\uffff').localeCompare(b.tactic ?? '\uffff'));
  return {
    adversarial: {
      dialogues: adversarial,
      held: byTactic.reduce((n, t) => n + t.held, 0),
      broken: byTactic.reduce((n, t) => n + t.broken, 0),
      byTactic,
    },
    contrastive: {
      dialogues: contrastive,
      checkAlarms,
      judgeAlarms,
      alarms: [
        ...alarms.filter((a) => a.by === 'checks'),
        ...alarms.filter((a) => a.by === 'judge'),
      ],
    },
  };
}
