import type { ProjectModel } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import { buildGraph } from '../graph/build.ts';
import type { LevelBand } from '../graph/levels.ts';
import { formatLevelBand } from '../graph/levels.ts';
import { sampleWithReport } from '../graph/sample.ts';
import type { PriceTable } from '../models/usage.ts';
import { callCost } from '../models/usage.ts';
import type { Project } from '../project.ts';
import { projectHash } from '../project.ts';
import type { SimEvent, SimScenario } from './events.ts';
import type { Player } from './modelCall.ts';
import { projectPrompts } from './prompts.ts';
import type { RunPlan } from './run.ts';
import { handWrittenScenarios } from './scenarios.ts';

/** Tool-calling answers the agent may give in a row before it must speak, in every run. */
export const MAX_TOOL_ROUNDS = 8;

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
  readonly generator?: Player;
  /** The agent is the user's own bot behind its endpoint: it is sent only the conversation. */
  readonly externalAgent?: boolean;
  readonly prices: PriceTable;
  /** Models that cost nothing (run in this browser, or a person's seat). */
  readonly freeModels?: readonly string[];
  /** The simulated date and time conditions see as `now` (ISO-8601). */
  readonly now: string;
  /**
   * The log of an interrupted run to go on with: its seed, trials and scenarios are the log's
   * (`scenarios` and `generate` are not used), and the rest is planned as for a new run.
   */
  readonly resuming?: readonly SimEvent[];
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
 * price for every model the run may pay for; without one it is refused, never ignored. The page,
 * Play and the CLI all plan through here, so a run means the same wherever it was started.
 */
export function planRun(project: Project, request: RunRequest): PlannedRun {
  const model = parseProject(project).model;
  const started = request.resuming?.find((e) => e.type === 'run-started');
  if (request.resuming && !started)
    return refuse('The run’s log has no start to go on from.', 'log');
  const written = handWrittenScenarios(model);
  let scenarios: readonly SimScenario[];
  if (started) scenarios = [];
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
  if (!started && request.generate && request.generate.count > 0) {
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
  const own = started ? [] : (request.ownScenarios ?? []);
  if (!started && scenarios.length + own.length + samples.length === 0)
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
    if (unpriced.length > 0)
      return refuse(
        `A dollar budget needs the price of every model it pays for, and ${unpriced.map((m) => `"${m}"`).join(', ')} ${unpriced.length === 1 ? 'has' : 'have'} none. Add ${unpriced.length === 1 ? 'its price' : 'their prices'}, or run without a dollar budget.`,
        'prices',
      );
  }

  const plan: RunPlan = {
    seed: started?.seed ?? request.seed,
    projectHash: projectHash(project.files),
    prompts: projectPrompts(model),
    scenarios: [
      ...[...scenarios, ...own].map((scenario) => ({ scenario, source: 'hand-written' as const })),
    ],
    trials: started?.trials ?? request.trials,
    concurrency: request.concurrency,
    limits: {
      maxTurns: request.maxTurns,
      timeLimitMs: request.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      maxToolRounds: MAX_TOOL_ROUNDS,
    },
    ...(request.budget && { budget: request.budget }),
    prices,
    agent: request.agent,
    ...(request.externalAgent && { externalAgent: true }),
    user: request.user,
    ...(request.judge && { judge: request.judge }),
    ...(samples.length > 0 && request.generator && { samples, generator: request.generator }),
    now: request.now,
  };
  return { ok: true, plan, model };
}

function priced(model: string, prices: PriceTable): boolean {
  return callCost(model, { inputTokens: 1, outputTokens: 1 }, prices) !== null;
}

function refuse(problem: string, fix: 'scenarios' | 'models' | 'prices' | 'log'): PlannedRun {
  return { ok: false, problem, fix };
}
