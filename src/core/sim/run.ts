import type { ProjectModel } from '../format/model.ts';
import type { Cancellation, ChatDelta, ModelRole } from '../models/chat.ts';
import type { RetryPolicy, RetryRuntime } from '../models/retry.ts';
import type { PriceTable } from '../models/usage.ts';
import type { DialogueLimits, Player } from './dialogue.ts';
import { DEFAULT_LIMITS, runDialogue } from './dialogue.ts';
import type { PromptUse, RunSource, SimEvent, SimScenario, StartingData } from './events.ts';
import type { DialoguePrefix } from './fork.ts';
import { dialogueId, ERROR_ENDINGS, findingState, LOG_VERSION } from './events.ts';
import type { GenerationFailure, ScenarioSample } from './generate.ts';
import { generateScenarios } from './generate.ts';
import type { Shard } from './shard.ts';
import { inShard, jobKey } from './shard.ts';
import { judgeDialogue } from './judge.ts';
import { judgeAssertions } from './assertionJudge.ts';
import { checkExpectations, endStateCharging, passesWithoutAgent } from './expectations.ts';
import { runChecks } from './judging.ts';
import { groundsOf } from './grounded.ts';
import { withoutUnseen } from './unseen.ts';
import { seedDatabase, tableKeys } from './database.ts';
import { simulatorSuspicion } from './suspect.ts';
import type { PromptTemplate, RunPrompts } from './prompts.ts';
import {
  ASSERTION_JUDGE_PROMPT,
  ASK_USER_PROMPT,
  POLICY_JUDGE_PROMPT,
  SCENARIO_GENERATOR_PROMPT,
  USER_SIMULATOR_PROMPT,
} from './prompts.ts';
import { transcriptOf } from './transcript.ts';
import { runInitialization } from './initialization.ts';
import { createBudget } from './budget.ts';

/** Everything that decides what a run does; recorded in its first event. */
export interface RunPlan {
  readonly seed: number;
  /** The project's content hash. */
  readonly projectHash: string;
  /** The project's files (whose hash `projectHash` is), recorded with the run when given. */
  readonly files?: Readonly<Record<string, string>>;
  readonly scenarios: readonly {
    readonly scenario: SimScenario;
    readonly source: 'hand-written' | 'generated';
  }[];
  /** Trials per scenario (k of pass^k). */
  readonly trials: number;
  /** Dialogues running at once. */
  readonly concurrency: number;
  readonly limits?: DialogueLimits;
  /**
   * The run stops cleanly once either is spent; each call's output is capped by what is left,
   * split between the dialogues at once (see budget.ts). A model without a price is limited by
   * the token budget only.
   */
  readonly budget?: { readonly tokens?: number; readonly dollars?: number };
  /** What each model costs; a call on a model not in it has no known cost (counted as 0). */
  readonly prices: PriceTable;
  readonly agent: Player;
  /** The agent is the user's own bot (its prompt and tools on its side); see DialogueDeps. */
  readonly externalAgent?: boolean;
  readonly user: Player;
  /** The simulated date and time conditions see as `now` (ISO-8601). */
  readonly now: string;
  /** When given, judges every policy in play of each dialogue that did not end in an error. */
  readonly judge?: Player;
  /** The policies whose verdict the judge's opinion decides (plan.ts `decidedByJudge`). */
  readonly judgeDecides?: readonly string[];
  /** How many times the judge is asked about each policy (1 unless set; its spread is reported). */
  readonly judgeRepeats?: number;
  /** With `generator`: policy combinations to write scenarios for before the dialogues start. */
  readonly samples?: readonly ScenarioSample[];
  readonly generator?: Player;
  /** Follow-up turns the generator gets to fix an invalid scenario (2 unless given). */
  readonly maxRepairs?: number;
  /**
   * The prompts to send in place of the built-in ones (`projectPrompts(model)` gives the
   * project's); each is recorded in `run-started` with its source (`built-in` unless marked).
   */
  readonly prompts?: Partial<RunPrompts>;
  /** The run this one is derived from (a dialogue continued from a turn), recorded with it. */
  readonly source?: RunSource;
  /**
   * Run only this slice of the scenario × trial jobs (see shard.ts): a hand-written scenario's
   * trials by their dialogue ids, a generated scenario whole, by its id (only its shard writes it).
   */
  readonly shard?: Shard;
  /**
   * A continued run's copied start (its one scenario, one trial): the dialogue copies it and goes
   * on from its turn (see `runDialogue`).
   */
  readonly prefix?: DialoguePrefix;
}

/** What a run needs from outside: timers and randomness for retries, the clock, prices, cancel. */
export interface RunDeps {
  readonly runtime: RetryRuntime;
  readonly retry?: RetryPolicy;
  /** Milliseconds since the run started. */
  readonly clock: () => number;
  readonly signal?: Cancellation;
  /** Receives each event as it happens (to save it, and to show progress). */
  readonly emit: (event: SimEvent) => void;
  /**
   * Told of each sample no valid scenario could be written for, as the log's `scenario-failed`
   * event for it is appended.
   */
  readonly onGenerationFailure?: (failure: GenerationFailure) => void;
  /**
   * The log so far of an interrupted run, to go on with: its scenarios are run again from the
   * log (never generated anew), judged dialogues are kept, dialogues cut off mid-way start again,
   * and what was spent counts against the budget.
   */
  readonly previous?: readonly SimEvent[];
  /**
   * Told as each model call of a dialogue starts; the sink it returns hears the answer stream in
   * (for showing words as they come; never logged). Functions do not cross to a worker, so only a
   * run on the caller's thread streams.
   */
  readonly onModelCall?: (
    dialogue: string,
    role: ModelRole,
  ) => ((delta: ChatDelta) => void) | undefined;
}

export { dialogueId } from './events.ts';

/**
 * Runs every scenario `plan.trials` times, `plan.concurrency` dialogues at a time, and judges
 * each dialogue as it ends (transcript checks and the scenario's expectations, appended as a
 * `checks` event; then, with `plan.judge`, the judge model's opinion per policy in play, unless
 * the dialogue ended in an error). With `plan.samples` and `plan.generator`, scenarios are first
 * written for the samples (`gen-<n>`, logged as `generated` scenario events as they come) and run
 * after the plan's own. Stops cleanly on cancel or when the budget is spent, generation included:
 * dialogues in flight end as `cancelled` or `budget`, and nothing finished is lost. Resolves with
 * why the run ended. A judge or generator that fails never fails the run or a dialogue.
 */
export async function runSimulation(
  model: ProjectModel,
  plan: RunPlan,
  deps: RunDeps,
): Promise<'done' | 'cancelled' | 'budget'> {
  const budget = createBudget(plan.budget, plan.prices, plan.concurrency);
  const emit = (event: SimEvent) => {
    budget.record(event);
    deps.emit(event);
  };
  const generating =
    plan.generator && plan.samples && plan.samples.length > 0
      ? { generator: plan.generator, samples: plan.samples }
      : undefined;
  const overBudget = () => budget.spent();

  /** The "do-nothing agent" run, done on paper: expectations against the untouched start. */
  const baseline = (scenario: SimScenario) => {
    const start = seedDatabase(model, scenario.rows).db;
    const { db } = runInitialization(model, start, scenario.initialization ?? [], plan.now);
    return passesWithoutAgent(scenario, db);
  };

  const previous = deps.previous;
  for (const e of previous ?? []) budget.record(e);
  const judged = new Set(previous?.flatMap((e) => (e.type === 'checks' ? [e.dialogue] : [])));
  if (previous) {
    const cut = previous.flatMap((e) =>
      e.type === 'dialogue-started' && !judged.has(e.dialogue) ? [e.dialogue] : [],
    );
    emit({ type: 'run-resumed', at: deps.clock(), rerun: [...new Set(cut)] });
  } else {
    emit({
      type: 'run-started',
      at: deps.clock(),
      version: LOG_VERSION,
      seed: plan.seed,
      projectHash: plan.projectHash,
      ...(plan.files && { files: plan.files }),
      models: {
        ...(generating && { generator: generating.generator.model }),
        agent: plan.agent.model,
        user: plan.user.model,
        ...(plan.judge && { judge: plan.judge.model }),
      },
      trials: plan.trials,
      ...(plan.externalAgent && { externalAgent: true }),
      prompts: [
        plan.prompts?.userSimulator ?? USER_SIMULATOR_PROMPT,
        plan.prompts?.askUser ?? ASK_USER_PROMPT,
        ...(generating ? [plan.prompts?.scenarioGenerator ?? SCENARIO_GENERATOR_PROMPT] : []),
        ...(plan.judge ? [plan.prompts?.policyJudge ?? POLICY_JUDGE_PROMPT] : []),
        ...(plan.judge && plan.scenarios.some((s) => (s.scenario.expected.assertions ?? []).length)
          ? [plan.prompts?.assertionJudge ?? ASSERTION_JUDGE_PROMPT]
          : []),
      ].map(promptUse),
      now: plan.now,
      database: startingData(model),
      ...(plan.source && { source: plan.source }),
      ...(plan.judge && plan.judgeDecides && { judgeDecides: plan.judgeDecides }),
      ...(plan.judge &&
        plan.judgeRepeats !== undefined &&
        plan.judgeRepeats > 1 && {
          judgeRepeats: plan.judgeRepeats,
        }),
      ...(plan.shard && { shard: plan.shard }),
    });
    for (const { scenario, source } of plan.scenarios) {
      emit({ type: 'scenario', at: deps.clock(), scenario, source, baseline: baseline(scenario) });
    }
  }
  const generated =
    generating && !previous
      ? await generateScenarios(model, generating.samples, {
          generator: generating.generator,
          runtime: deps.runtime,
          ...(deps.retry && { retry: deps.retry }),
          ...(deps.signal && { signal: deps.signal }),
          prices: plan.prices,
          clock: deps.clock,
          emit,
          budget,
          ...(plan.maxRepairs === undefined ? {} : { maxRepairs: plan.maxRepairs }),
          ...(plan.prompts?.scenarioGenerator && { template: plan.prompts.scenarioGenerator }),
          seed: plan.seed,
          concurrency: plan.concurrency,
          ...(plan.shard && { include: (id: string) => inShard(id, plan.shard) }),
          overBudget,
          onScenario: (scenario) => {
            emit({
              type: 'scenario',
              at: deps.clock(),
              scenario,
              source: 'generated',
              baseline: baseline(scenario),
            });
          },
        })
      : { scenarios: [], failures: [] };
  // In the samples' order, whatever order they failed in, so equal scripts give equal logs.
  for (const failure of generated.failures) {
    emit({
      type: 'scenario-failed',
      at: deps.clock(),
      sample: { policies: failure.sample.policies, level: failure.sample.level },
      error: failure.error,
      attempts: failure.attempts,
    });
    deps.onGenerationFailure?.(failure);
  }

  const scenarios = previous
    ? previous.flatMap((e) => (e.type === 'scenario' ? [e.scenario] : []))
    : [...plan.scenarios.map((s) => s.scenario), ...generated.scenarios];
  const generatedIds = new Set(
    previous
      ? previous.flatMap((e) =>
          e.type === 'scenario' && e.source === 'generated' ? [e.scenario.id] : [],
        )
      : [
          ...plan.scenarios.flatMap((s) => (s.source === 'generated' ? [s.scenario.id] : [])),
          ...generated.scenarios.map((s) => s.id),
        ],
  );
  const queue = scenarios
    .flatMap((scenario) => Array.from({ length: plan.trials }, (_, trial) => ({ scenario, trial })))
    .filter((job) => !judged.has(dialogueId(job.scenario.id, job.trial)))
    .filter((job) => {
      const source = generatedIds.has(job.scenario.id) ? 'generated' : 'hand-written';
      return inShard(jobKey(job.scenario.id, job.trial, source), plan.shard);
    });
  // Each dialogue's own events, for judging it when it ends.
  const logs = new Map<string, SimEvent[]>();
  const record = (event: SimEvent) => {
    if ('dialogue' in event) {
      const own = logs.get(event.dialogue);
      if (own) own.push(event);
      else logs.set(event.dialogue, [event]);
    }
    emit(event);
  };
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      if (deps.signal?.aborted || overBudget()) return;
      const dialogue = dialogueId(job.scenario.id, job.trial);
      const result = await runDialogue(
        model,
        job.scenario,
        { dialogue, trial: job.trial },
        {
          agent: plan.agent,
          ...(plan.externalAgent && { externalAgent: true }),
          user: plan.user,
          runtime: deps.runtime,
          ...(deps.retry && { retry: deps.retry }),
          clock: deps.clock,
          now: plan.now,
          ...(plan.prompts && { prompts: plan.prompts }),
          prices: plan.prices,
          ...(deps.signal && { signal: deps.signal }),
          emit: record,
          budget,
          overBudget,
          ...(deps.onModelCall && {
            onModelCall: (role: ModelRole) => deps.onModelCall?.(dialogue, role),
          }),
        },
        plan.limits ?? DEFAULT_LIMITS,
        plan.prefix,
      );
      const transcript = transcriptOf(logs.get(dialogue) ?? [], dialogue);
      logs.delete(dialogue);
      const judged = [
        ...runChecks(model.checks, transcript, groundsOf(model.prompt, job.scenario)),
        ...checkExpectations(
          job.scenario,
          transcript,
          result.finalDb,
          result.startDb,
          tableKeys(model),
          endStateCharging(model),
        ),
      ];
      // The user's own agent: what its side holds is not checked, never failed (unseen.ts).
      const findings = plan.externalAgent
        ? withoutUnseen(judged, model.checks, transcript)
        : judged;
      emit({ type: 'checks', at: deps.clock(), dialogue, findings });
      if (!ERROR_ENDINGS.has(result.ending)) {
        const failed =
          result.ending === 'agent-error' || findings.some((f) => findingState(f) === 'broken');
        const reasons = simulatorSuspicion(job.scenario, transcript, failed);
        if (reasons.length > 0) emit({ type: 'suspect', at: deps.clock(), dialogue, reasons });
      }
      if (plan.judge && !ERROR_ENDINGS.has(result.ending)) {
        // The policy judge and the assertion judge share the model, money, clock and log.
        const judging = {
          judge: plan.judge,
          runtime: deps.runtime,
          ...(deps.retry && { retry: deps.retry }),
          ...(deps.signal && { signal: deps.signal }),
          prices: plan.prices,
          clock: deps.clock,
          emit,
          budget,
          overBudget,
        };
        // Every policy in play is put to the judge: the scenario's, the tools', the rules' that fired.
        const fired = findings.flatMap((f) =>
          !f.passed && f.policy !== undefined ? [f.policy] : [],
        );
        await judgeDialogue(
          model,
          job.scenario,
          transcript,
          {
            ...judging,
            ...(plan.prompts?.policyJudge && { template: plan.prompts.policyJudge }),
            ...(plan.judgeRepeats !== undefined && { repeats: plan.judgeRepeats }),
          },
          fired,
        );
        await judgeAssertions(job.scenario, transcript, {
          ...judging,
          ...(plan.prompts?.assertionJudge && { template: plan.prompts.assertionJudge }),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, plan.concurrency) }, worker));
  const reason = deps.signal?.aborted ? 'cancelled' : overBudget() ? 'budget' : 'done';
  emit({ type: 'run-ended', at: deps.clock(), reason });
  return reason;
}

/** The project's seed rows, by table with its key, as every dialogue of the run starts from them. */
export function startingData(model: ProjectModel): StartingData {
  const { db } = seedDatabase(model);
  return {
    tables: model.tables.flatMap((table) => {
      const rows = db[table.name];
      return rows ? [{ name: table.name, key: table.key, rows }] : [];
    }),
  };
}

/** How `run-started` records a prompt: a template without a source is a built-in one. */
function promptUse(template: PromptTemplate): PromptUse {
  return { id: template.id, version: template.version, source: template.source ?? 'built-in' };
}
