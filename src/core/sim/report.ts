import type { ModelRole } from '../models/chat.ts';
import type { UsageLedger } from '../models/usage.ts';
import { EMPTY_LEDGER } from '../models/usage.ts';
import type { SimEvent, SimScenario, TerminationReason } from './events.ts';
import type { Shard } from './shard.ts';
import { inShard, jobKey } from './shard.ts';
import { generationOf } from './generationReport.ts';
import type { DialogueAcc, RunFacts } from './dialogueFold.ts';
import {
  finish,
  judgeSpread,
  late,
  openDialogue,
  record,
  settledJudgements,
  text,
} from './dialogueFold.ts';
import type { PassRate } from './metrics.ts';
import { passHatK, passRate } from './metrics.ts';
import type {
  DialogueReport,
  PolicyBreach,
  PolicyFacts,
  Progress,
  RunReport,
  ScenarioSummary,
  Verdict,
} from './reportTypes.ts';
import type { AttackReport } from './attackReport.ts';
import { attackReportOf } from './attackReport.ts';

export type * from './reportTypes.ts';

type UsageEvent = Extract<SimEvent, { type: 'usage' }>;
type Spent = Omit<UsageLedger, 'byRole'>;

function spend(entry: Spent, e: UsageEvent): Spent {
  return {
    calls: entry.calls + 1,
    failed: entry.failed + (e.failed === undefined ? 0 : 1),
    estimated: entry.estimated + (e.estimated === undefined ? 0 : 1),
    inputTokens: entry.inputTokens + e.inputTokens,
    outputTokens: entry.outputTokens + e.outputTokens,
    cost: entry.cost === null || e.cost === null ? null : entry.cost + e.cost,
    // Sorted, so the report of a log does not hang on the order its shards were merged in.
    unpriced:
      e.cost === null && !entry.unpriced.includes(e.model)
        ? [...entry.unpriced, e.model].sort()
        : entry.unpriced,
  };
}

function levelOf(scenario: SimScenario, policies: PolicyFacts): number | null {
  if (scenario.level !== undefined) return scenario.level;
  let sum = 0;
  for (const id of scenario.policies) {
    const facts = policies.get(id);
    if (!facts) return null;
    sum += facts.challenge;
  }
  return sum;
}

type Tally<K> = Map<K, [passes: number, fails: number]>;

function tally<K>(into: Tally<K>, key: K, passed: boolean): void {
  const counts = into.get(key) ?? [0, 0];
  counts[passed ? 0 : 1]++;
  into.set(key, counts);
}

function rates<K>(from: Tally<K>, order: (a: K, b: K) => number): [K, PassRate][] {
  return [...from].sort(([a], [b]) => order(a, b)).map(([k, [p, f]]) => [k, passRate(p, f)]);
}

/** The log read once: the run's own events, and each dialogue's events gathered. */
function read(events: readonly SimEvent[]) {
  let run: RunReport['run'] = null;
  let shard: Shard | undefined;
  let ended: Progress['ended'] = 'unfinished';
  let usage: UsageLedger = EMPTY_LEDGER;
  const msByRole: Partial<Record<ModelRole, number>> = {};
  const announced = new Map<string, Extract<SimEvent, { type: 'scenario' }>>();
  const open = new Map<string, DialogueAcc>();
  for (const e of events) {
    switch (e.type) {
      case 'run-started':
        run = {
          seed: e.seed,
          projectHash: e.projectHash,
          models: e.models,
          trials: e.trials,
          externalAgent: e.externalAgent === true,
          judgeDecides: e.judgeDecides ?? [],
        };
        shard = e.shard;
        break;
      case 'scenario':
        announced.set(e.scenario.id, e);
        break;
      case 'scenario-failed':
        // Folded by generationOf: a failed sample is no scenario and has no dialogue.
        break;
      case 'run-ended':
        ended = e.reason;
        break;
      case 'run-resumed':
        // Cut-off dialogues start again; until they do, they are not running anywhere.
        for (const id of e.rerun) open.delete(id);
        break;
      case 'usage': {
        const { byRole, ...total } = usage;
        const role = spend(byRole[e.role] ?? EMPTY_LEDGER, e);
        usage = { ...spend(total, e), byRole: { ...byRole, [e.role]: role } };
        msByRole[e.role] = (msByRole[e.role] ?? 0) + e.ms;
        break;
      }
      case 'dialogue-started':
        open.set(e.dialogue, openDialogue(e));
        break;
      default: {
        // Events of a dialogue whose start is not in the log have nothing to attach to.
        const d = open.get(e.dialogue);
        if (d) record(d, e);
      }
    }
  }
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { at } of events) {
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  const wallMs = events.length === 0 ? 0 : last - first;
  return { run, shard, ended, usage, msByRole, announced, open, wallMs };
}

/**
 * The run report as a fold over its event log: pass rates overall, by challenge level, by policy
 * and by category with Wilson intervals, pass^k, errors by reason, the judge's opinion kept
 * apart, progress, tokens and cost. Works on the partial log of a run still going or
 * interrupted; the same log always gives the same report, in a stable order.
 */
export function reportOf(events: readonly SimEvent[], policies: PolicyFacts): RunReport {
  const { run, shard, ended, usage, msByRole, announced, open, wallMs } = read(events);
  const facts: RunFacts = {
    announced,
    judge: run?.models.judge !== undefined,
    decides: new Set(run?.judgeDecides ?? []),
  };
  const dialogues = [...open.values()]
    .map((d) => finish(d, facts))
    .sort(
      (a, b) => text(a.scenario, b.scenario) || a.trial - b.trial || text(a.dialogue, b.dialogue),
    );
  const levelOfId = (id: string) => {
    const a = announced.get(id);
    return a ? levelOf(a.scenario, policies) : null;
  };

  const levels: Tally<number | null> = new Map();
  const inPlay: Tally<string> = new Map();
  const categories: Tally<string> = new Map();
  const judged: Tally<string> = new Map();
  const notChecked = new Map<string, number>();
  const breachesOf = new Map<string, PolicyBreach[]>();
  const notedOf = new Map<string, PolicyBreach[]>();
  const unattributed: RunReport['unattributed'][number][] = [];
  const errors = new Map<TerminationReason, number>();
  let dialoguesJudged = 0;
  let repeated = 0;
  let unanimous = 0;
  let compared = 0;
  const disagreements: RunReport['judgeOpinion']['agreement']['disagreements'][number][] = [];
  const people = {
    judgeMarked: 0,
    judgeRight: 0,
    findingsMarked: 0,
    findingsWrong: 0,
    assertionsMarked: 0,
    assertionsRight: 0,
  };
  for (const acc of open.values()) {
    for (const mark of acc.marks.values()) {
      if (mark.kind === 'judge') {
        people.judgeMarked++;
        if (mark.correct) people.judgeRight++;
      } else if (mark.kind === 'assertion') {
        people.assertionsMarked++;
        if (mark.correct) people.assertionsRight++;
      } else {
        people.findingsMarked++;
        if (!mark.correct) people.findingsWrong++;
      }
    }
  }
  for (const d of dialogues) {
    if (d.errorReason) errors.set(d.errorReason, (errors.get(d.errorReason) ?? 0) + 1);
    if (d.verdict !== 'pass' && d.verdict !== 'fail') continue;
    const acc = open.get(d.dialogue);
    const judgements = acc ? settledJudgements(acc) : [];
    for (const s of acc ? judgeSpread(acc) : []) {
      repeated++;
      if (s.unanimous) unanimous++;
    }
    if (judgements.length > 0) dialoguesJudged++;
    for (const j of judgements) tally(judged, j.policy, !j.violated);
    tally(levels, levelOfId(d.scenario), d.verdict === 'pass');
    // In play: the scenario's policies, and those the judge decided here (found in play by it).
    const playing = [
      ...new Set([...(announced.get(d.scenario)?.scenario.policies ?? []), ...d.decided]),
    ];
    const broken = new Set<string>();
    const { dialogue, scenario, trial } = d;
    for (const b of d.breaches) {
      if (b.policy === undefined) {
        unattributed.push({ ...b, dialogue, scenario, trial });
        continue;
      }
      broken.add(b.policy);
      const list = breachesOf.get(b.policy) ?? [];
      list.push({ ...b, dialogue, scenario, trial, inPlay: playing.includes(b.policy) });
      breachesOf.set(b.policy, list);
    }
    for (const b of d.noted) {
      if (b.policy === undefined) continue;
      const list = notedOf.get(b.policy) ?? [];
      list.push({ ...b, dialogue, scenario, trial, inPlay: playing.includes(b.policy) });
      notedOf.set(b.policy, list);
    }
    // A policy counts where something examined it (a breach is an examination too); a policy
    // in play that nothing looked at was not checked there, which is never a pass.
    const examined = new Set([
      ...d.examined,
      ...broken,
      ...d.noted.flatMap((b) => (b.policy === undefined ? [] : [b.policy])),
    ]);
    const looked = playing.filter((p) => examined.has(p));
    for (const p of playing) {
      if (examined.has(p)) tally(inPlay, p, !broken.has(p));
      else notChecked.set(p, (notChecked.get(p) ?? 0) + 1);
    }
    const brokenCategories = new Set([...broken].map((p) => policies.get(p)?.category));
    for (const category of new Set(looked.map((p) => policies.get(p)?.category))) {
      if (category !== undefined) tally(categories, category, !brokenCategories.has(category));
    }
    for (const j of judgements) {
      if (!examined.has(j.policy)) continue;
      compared++;
      if (j.violated !== broken.has(j.policy))
        disagreements.push({ dialogue, policy: j.policy, judgeViolated: j.violated });
    }
  }

  const ofScenario = new Map<string, DialogueReport[]>();
  for (const d of dialogues) {
    const list = ofScenario.get(d.scenario) ?? [];
    list.push(d);
    ofScenario.set(d.scenario, list);
  }
  const count = (ds: readonly DialogueReport[] | undefined, verdict: Verdict) =>
    ds?.filter((d) => d.verdict === verdict).length ?? 0;
  const scenarios = [...new Set([...announced.keys(), ...ofScenario.keys()])]
    .sort(text)
    .map((id): ScenarioSummary => {
      const ds = ofScenario.get(id);
      return {
        id,
        source: announced.get(id)?.source ?? null,
        level: levelOfId(id),
        policies: announced.get(id)?.scenario.policies ?? [],
        passes: count(ds, 'pass'),
        fails: count(ds, 'fail'),
        errors: count(ds, 'error'),
        suspect: count(ds, 'suspect'),
        running: count(ds, 'running'),
        passesIdle: announced.get(id)?.baseline?.passes
          ? (announced.get(id)?.baseline?.detail ?? null)
          : null,
      };
    });
  const trials = run?.trials ?? 0;
  const finished = scenarios.map((s) => ({ passes: s.passes, trials: s.passes + s.fails }));
  const running = count(dialogues, 'running');
  const policyIds = [
    ...new Set([...inPlay.keys(), ...notChecked.keys(), ...breachesOf.keys(), ...notedOf.keys()]),
  ].sort(text);

  return {
    run,
    progress: {
      scenarios: announced.size,
      dialoguesStarted: dialogues.length,
      dialoguesEnded: dialogues.length - running,
      dialoguesExpected: expectedDialogues(announced.values(), trials, shard),
      running,
      ended,
    },
    generation: generationOf(events),
    overall: passRate(count(dialogues, 'pass'), count(dialogues, 'fail')),
    suspect: count(dialogues, 'suspect'),
    unattributed: unattributed.sort(
      (a, b) => text(a.scenario, b.scenario) || a.trial - b.trial || late(a.turn) - late(b.turn),
    ),
    errors: {
      total: count(dialogues, 'error'),
      byReason: [...errors]
        .sort(([a], [b]) => text(a, b))
        .map(([reason, n]) => ({ reason, count: n })),
    },
    byLevel: rates(levels, (a, b) => (a ?? Infinity) - (b ?? Infinity)).map(([level, rate]) => ({
      level,
      ...rate,
    })),
    byPolicy: policyIds.map((policy) => {
      const [p, f] = inPlay.get(policy) ?? [0, 0];
      const breaches = breachesOf.get(policy) ?? [];
      const noted = notedOf.get(policy) ?? [];
      return {
        policy,
        category: policies.get(policy)?.category ?? null,
        ...passRate(p, f),
        notChecked: notChecked.get(policy) ?? 0,
        breaches,
        outOfPlay: new Set(breaches.filter((b) => !b.inPlay).map((b) => b.dialogue)).size,
        attempts: breaches.filter((b) => b.attempt).length + noted.length,
        noted,
      };
    }),
    byCategory: rates(categories, text).map(([category, rate]) => ({ category, ...rate })),
    passHatK: Array.from({ length: trials }, (_, i) => ({
      k: i + 1,
      value: passHatK(finished, i + 1),
      scenarios: finished.filter((s) => s.trials > i).length,
    })),
    scenarios,
    dialogues,
    judgeOpinion: {
      dialoguesJudged,
      spread: { repeated, unanimous },
      failed: {
        judgements: dialogues.reduce((n, d) => n + d.judgeFailed.length, 0),
        dialogues: dialogues.filter((d) => d.judgeFailed.length > 0).length,
        ...(() => {
          const first = dialogues.find((d) => d.judgeFailed.length > 0)?.judgeFailed[0]?.error;
          return first === undefined ? {} : { first };
        })(),
      },
      byPolicy: [...judged]
        .sort(([a], [b]) => text(a, b))
        .map(([policy, [kept, violated]]) => ({ policy, judged: kept + violated, violated })),
      agreement: { compared, agreed: compared - disagreements.length, disagreements },
      people,
      assertions: assertionCounts(dialogues),
    },
    usage,
    wallMs,
    msByRole,
    ...withAttack(attackReportOf(dialogues, (id) => announced.get(id)?.scenario)),
  };
}

/**
 * How many dialogues a run (or one shard of it) is to run: every trial of every scenario, or the
 * shard's slice of them (see `jobKey`).
 */
function expectedDialogues(
  announced: Iterable<Extract<SimEvent, { type: 'scenario' }>>,
  trials: number,
  shard: Shard | undefined,
): number {
  let expected = 0;
  for (const { scenario, source } of announced)
    for (let trial = 0; trial < trials; trial++)
      if (inShard(jobKey(scenario.id, trial, source), shard)) expected++;
  return expected;
}

/** The scenarios' natural-language assertions over the ended dialogues: the judge's opinions, and those not judged. */
function assertionCounts(
  dialogues: readonly DialogueReport[],
): RunReport['judgeOpinion']['assertions'] {
  const counts = { met: 0, notMet: 0, notJudged: 0, graded: 0 };
  for (const d of dialogues) {
    if (d.verdict === 'running') continue;
    for (const a of d.assertions) {
      if (a.graded) counts.graded++;
      if (a.opinion === 'met') counts.met++;
      else if (a.opinion === 'not-met') counts.notMet++;
      else counts.notJudged++;
    }
  }
  return counts;
}

/** The attack part of the report as a field, left out when the run has no tagged scenario. */
function withAttack(attack: AttackReport | undefined): { attack?: AttackReport } {
  return attack === undefined ? {} : { attack };
}
