import type { ProjectModel } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { policyCoverage } from '../lint/coverage.ts';
import { buildGraph } from '../graph/build.ts';
import type { LevelBand } from '../graph/levels.ts';
import { formatLevelBand } from '../graph/levels.ts';
import { sampleWithReport } from '../graph/sample.ts';
import type { PriceTable } from '../models/usage.ts';
import { callCost } from '../models/usage.ts';
import type { Project } from '../project.ts';
import { projectHash } from '../project.ts';
import type { RunSource, SimEvent, SimScenario } from './events.ts';
import type { ForkPoint } from './fork.ts';
import { continuedPrefix, dialoguePrefix } from './fork.ts';
import type { Player } from './modelCall.ts';
import { projectPrompts } from './prompts.ts';
import { DEFAULT_MAX_TOOL_ROUNDS } from './limits.ts';
import type { RunPlan } from './run.ts';
import type { Shard } from './shard.ts';
import { handWrittenScenarios } from './scenarios.ts';

/** A dialogue's time limit when the caller sets none. */
export const DEFAULT_TIME_LIMIT_MS = 300_000;

/**
 * What a caller asks of a run, in its own terms: the Simulate pane's form, run.yaml, or a game
 * of Play. `planRun` turns it into the RunPlan every run is recorded with.
 */
export interface RunRequest {
  /** Seeds the sampling of policy combinations and the generator; recorded with the run. */
  readonly seed: number;
  /** Trials per scenario (the k of pass^k). */
  readonly trials: number;
  /** Dialogues at once. */
  readonly concurrency: number;
  /** Messages the simulated user may send per dialogue. */
  readonly maxTurns: number;
  /** Tool calls in a row before a player must speak; `DEFAULT_MAX_TOOL_ROUNDS` when left out. */
  readonly maxToolRounds?: number;
  readonly timeLimitMs?: number;
  readonly budget?: { readonly tokens?: number; readonly dollars?: number };
  /** The hand-written scenarios of scenarios.yaml to run: all, none, or these ids in order. */
  readonly scenarios: 'all' | 'none' | readonly string[];
  /** Scenarios the caller made itself (Play's free game), run after those. */
  readonly ownScenarios?: readonly SimScenario[];
  /** Policy combinations to sample from the graph with `seed`, for the generator to write. */
  readonly generate?: { readonly count: number; readonly levels: LevelBand };
  readonly agent: Player;
  readonly user: Player;
  readonly judge?: Player;
  /**
   * The judge's opinion decides the verdict of every policy no deterministic check covers (a
   * policy's `judge: decides` asks for it one policy at a time); needs a judge.
   */
  readonly judgeDecides?: boolean;
  /** Ask the judge about each policy this many times (1 to 5) and report how far it agrees. */
  readonly judgeRepeats?: number;
  readonly generator?: Player;
  /** The agent is the user's own bot behind its endpoint: it is sent only the conversation. */
  readonly externalAgent?: boolean;
  readonly prices: PriceTable;
  /** Models that cost nothing (run in this browser, or a person's seat). */
  readonly freeModels?: readonly string[];
  /**
   * The simulated date and time conditions see as `now` (ISO-8601), unless the project fixes
   * its own (database.yaml `now:`), which wins.
   */
  readonly now: string;
  /**
   * The log of an interrupted run to go on with: its seed, trials and scenarios are the log's
   * (`scenarios` and `generate` are not used), and the rest is planned as for a new run.
   */
  readonly resuming?: readonly SimEvent[];
  /** Run only this slice of the run's jobs (`policylab run --shard K/N`); see shard.ts. */
  readonly shard?: Shard;
  /**
   * Continue dialogue `dialogue` of run `run` (its log: `events`) from agent message `turn` (its
   * raw index) with this project and these models: one trial of its scenario, the turns before
   * copied, the rest run anew (`scenarios`, `generate`, `ownScenarios` and `trials` are not used).
   * The run records it as its `source`, and sees the `now` the source run saw (when its log
   * records one), so the copied turns and the new ones happen at the same moment.
   */
  readonly continueFrom?: {
    readonly run: string;
    readonly events: readonly SimEvent[];
    readonly dialogue: string;
    readonly turn: number;
  };
}

/**
 * A plan ready to run with the project's model, or why the request cannot run and what the
 * person would change to fix it: the scenarios, the models, the prices, or the log resumed.
 */
export type PlannedRun =
  | { readonly ok: true; readonly plan: RunPlan; readonly model: ProjectModel }
  | {
      readonly ok: false;
      readonly problem: string;
      readonly fix: 'scenarios' | 'models' | 'prices' | 'log';
    };

/**
 * Plans a run of `project`: which scenarios (scenarios.yaml's, chosen by id or all, and any the
 * caller made), which policy combinations the generator writes scenarios for (sampled from the
 * policy graph with the request's seed, so the recorded seed is the one that drew them), the
 * project's own prompts, the content hash, limits, budget and prices. A dollar budget needs a
 * price for every model the run may pay for, or a token budget beside it to limit the models
 * without one; otherwise it is refused, never ignored. The page,
 * Play and the CLI all plan through here, so a run means the same wherever it was started.
 * With `continueFrom`, plans the one dialogue that continues it, or refuses (`fix: 'log'`) when
 * the log cannot be continued there (see `dialoguePrefix`).
 * `model` is the project's parsed model when the caller already has it (the page's analysis of
 * this very text, so the page never parses a whole project on its own thread); parsed here when
 * absent (the CLI).
 */
export function planRun(
  project: Project,
  request: RunRequest,
  model: ProjectModel = parseProject(project).model,
): PlannedRun {
  const started = request.resuming?.find((e) => e.type === 'run-started');
  if (request.resuming && !started)
    return refuse('The run’s log has no start to go on from.', 'log');
  const fork = forkOf(request, started);
  if (fork && !fork.ok) return refuse(fork.problem, fork.fix);
  const written = handWrittenScenarios(model);
  let scenarios: readonly SimScenario[];
  if (started || fork) scenarios = [];
  else if (request.scenarios === 'all') scenarios = written;
  else if (request.scenarios === 'none') scenarios = [];
  else {
    const chosen: SimScenario[] = [];
    for (const id of request.scenarios) {
      const found = written.find((s) => s.id === id);
      if (!found) return refuse(`scenarios.yaml has no scenario "${id}".`, 'scenarios');
      chosen.push(found);
    }
    scenarios = chosen;
  }

  let samples: RunPlan['samples'] = [];
  if (!started && !fork && request.generate && request.generate.count > 0) {
    if (!request.generator)
      return refuse('Generating scenarios needs a model for the generator role.', 'models');
    const { levels, count } = request.generate;
    samples = sampleWithReport(buildGraph(model), {
      seed: request.seed,
      count,
      levels,
    }).samples.map((s) => ({ policies: s.policies, level: s.level }));
    if (samples.length === 0)
      return refuse(
        `No policy combination reaches levels ${formatLevelBand(levels)} in this graph.`,
        'scenarios',
      );
  }
  const own = started || fork ? [] : (request.ownScenarios ?? []);
  if (!started && !fork && scenarios.length + own.length + samples.length === 0)
    return refuse(
      'There is nothing to run: no scenarios in scenarios.yaml, and none to generate.',
      'scenarios',
    );

  const prices: Record<string, RunPlan['prices'][string]> = { ...request.prices };
  for (const name of request.freeModels ?? [])
    prices[name] = { inputPerMillion: 0, outputPerMillion: 0 };
  if (request.budget?.dollars !== undefined) {
    const paying = [
      request.agent,
      request.user,
      request.judge,
      samples.length > 0 ? request.generator : undefined,
    ];
    const unpriced = [
      ...new Set(paying.flatMap((p) => (p && !priced(p.model, prices) ? [p.model] : []))),
    ];
    // A token budget limits what a dollar budget cannot count (see budget.ts).
    if (unpriced.length > 0 && request.budget.tokens === undefined)
      return refuse(
        `A dollar budget needs the price of every model it pays for, and ${unpriced.map((m) => `"${m}"`).join(', ')} ${unpriced.length === 1 ? 'has' : 'have'} none. Add ${unpriced.length === 1 ? 'its price' : 'their prices'}, set a token budget (which limits a model without a price), or run without a dollar budget.`,
        'prices',
      );
  }

  const plan: RunPlan = {
    seed: started?.seed ?? request.seed,
    projectHash: projectHash(project.files),
    files: project.files,
    prompts: projectPrompts(model),
    scenarios: [
      ...[...scenarios, ...own].map((scenario) => ({ scenario, source: 'hand-written' as const })),
      ...(fork && !started ? [{ scenario: fork.scenario, source: fork.scenarioSource }] : []),
    ],
    trials: started?.trials ?? (fork ? 1 : request.trials),
    concurrency: request.concurrency,
    limits: {
      maxTurns: request.maxTurns,
      timeLimitMs: request.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      maxToolRounds: request.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
    },
    ...(request.budget && { budget: request.budget }),
    prices,
    agent: request.agent,
    ...(request.externalAgent && { externalAgent: true }),
    user: request.user,
    ...(request.judge && { judge: request.judge }),
    ...(request.judge && decidedByJudge(model, request.judgeDecides === true)),
    ...(request.judge &&
      request.judgeRepeats !== undefined &&
      request.judgeRepeats > 1 && { judgeRepeats: Math.min(5, Math.round(request.judgeRepeats)) }),
    ...(samples.length > 0 && request.generator && { samples, generator: request.generator }),
    // A resumed run goes on at the moment its log recorded, so re-run dialogues see the same
    // time; a new run sees the time the project fixes (database.yaml `now:`), else the caller's.
    now:
      (started?.type === 'run-started' ? started.now : undefined) ??
      fork?.now ??
      model.now ??
      request.now,
    ...(fork && { source: fork.source, prefix: fork.prefix }),
  };
  // A resumed shard goes on as the same shard.
  const shard = started?.shard ?? request.shard;
  if (shard) return { ok: true, plan: { ...plan, shard }, model };
  return { ok: true, plan, model };
}

/**
 * A continued run's fork: from the request's source log, or (resuming a continued run) from the
 * run's own log; undefined for any other run.
 */
function forkOf(
  request: RunRequest,
  started: Extract<SimEvent, { type: 'run-started' }> | undefined,
):
  | (Extract<ForkPoint, { ok: true }> & { readonly source: RunSource })
  | { readonly ok: false; readonly problem: string; readonly fix: 'models' | 'log' }
  | undefined {
  const from = request.continueFrom;
  if (started) {
    if (started.source?.kind !== 'continued' || !request.resuming) return undefined;
    const point = continuedPrefix(request.resuming);
    return point.ok ? { ...point, source: started.source } : { ...point, fix: 'log' };
  }
  if (!from) return undefined;
  const point = dialoguePrefix(from.events, from.dialogue, from.turn);
  if (!point.ok) return { ...point, fix: 'log' };
  if (request.externalAgent)
    return {
      ok: false,
      problem:
        'The agent is your own bot behind its endpoint, which keeps its own tools and database: a dialogue can only be continued with an agent PolicyLab runs.',
      fix: 'models',
    };
  return {
    ...point,
    source: { kind: 'continued', run: from.run, dialogue: from.dialogue, turn: from.turn },
  };
}

function priced(model: string, prices: PriceTable): boolean {
  return callCost(model, { inputTokens: 1, outputTokens: 1 }, prices) !== null;
}

function refuse(problem: string, fix: 'scenarios' | 'models' | 'prices' | 'log'): PlannedRun {
  return { ok: false, problem, fix };
}

/**
 * The policies whose verdict the judge's opinion decides: those no guard rule, precondition,
 * check or expectation covers, when the run asks (`judgeDecides`) or the policy does
 * (`judge: decides`). A policy something deterministic covers is never decided by a model.
 */
function decidedByJudge(model: ProjectModel, all: boolean): { judgeDecides?: readonly string[] } {
  const decided = judgeDecidedPolicies(model, all);
  return decided.length > 0 ? { judgeDecides: decided } : {};
}

/**
 * The ids of the policies a run's judge decides: uncovered by anything deterministic, and asked
 * for by the run (`all`) or by the policy (`judge: decides`).
 */
export function judgeDecidedPolicies(model: ProjectModel, all: boolean): string[] {
  const coverage = policyCoverage(model);
  return model.policies
    .filter((p) => (all || p.judgeDecides === true) && coverage.get(p.id)?.length === 0)
    .map((p) => p.id);
}
