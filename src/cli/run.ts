import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createRemoteEngine } from '../adapters/models/remote.ts';
import { monotonicClock, platformRuntime } from '../adapters/models/runtime.ts';
import type { Player, RunPlan, RunReport, SimEvent } from '../core/index.ts';
import {
  buildGraph,
  checkBaseUrl,
  handWrittenScenarios,
  parseProject,
  projectHash,
  projectPrompts,
  reportOf,
  runSimulation,
  sampleWithReport,
} from '../core/index.ts';
import { loadProject } from './loadProject.ts';
import type { CliIO } from './main.ts';
import { junitOf } from './junit.ts';

/** 0: the pass rate met the threshold; 1: it did not (or nothing could be judged); 2: bad input. */
const CODE = { ok: 0, failed: 1, usage: 2 } as const;

/** The text of `policylab run --help`. */
export function runHelpText(): string {
  return `policylab run: run a whole evaluation headless, against remote endpoints.

Usage:
  policylab run <project> --config run.yaml

run.yaml:
  models:
    agent: { provider: openai, base_url: https://api.openai.com/v1, model: gpt-4.1-mini,
             api_key_env: OPENAI_API_KEY }
                         # own_agent: true when this is your own bot (its prompt and tools
                         # on its side): it then gets only the conversation
    user: { ... }        # the simulated user; the agent's endpoint when left out
    judge: { ... }       # optional: a model's opinion per policy in play
    generator: { ... }   # needed with "sample"
  scenarios: all         # the hand-written scenarios of scenarios.yaml: all (default) or none
  sample: { count: 10, levels: 4-8, seed: 1 }   # optional: generated scenarios
  trials: 2              # per scenario (pass^k)
  concurrency: 4
  max_turns: 10
  time_limit_s: 300      # per dialogue
  budget: { dollars: 5, tokens: 2000000 }
  threshold: 0.8         # exit 1 when the pass rate is below it
  out: policylab-run     # writes events.jsonl, summary.json and junit.xml there

The prompts written under "prompts:" in the project's scenarios.yaml replace the built-in ones;
events.jsonl records which were used. Progress, and the sampled combinations the generator
could not write a valid scenario for, go to stderr. API keys come from the environment
variables named; they are never written to any output.
`;
}

interface EndpointConfig {
  readonly provider: 'openai' | 'anthropic';
  readonly baseUrl: string;
  readonly model: string;
  readonly keyVar: string | undefined;
  /** The endpoint is the user's own agent: it gets only the conversation. */
  readonly ownAgent: boolean;
}

/** Runs `policylab run ...` and returns the exit code. */
export async function runRun(
  argv: readonly string[],
  io: CliIO,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const [target, flag, configPath, ...extra] = argv;
  if (target === undefined || target === '--help' || target === '-h') {
    io.out(runHelpText());
    return target === undefined ? CODE.usage : CODE.ok;
  }
  if (flag !== '--config' || configPath === undefined || extra.length > 0) {
    return usage(io, 'the form is: policylab run <project> --config run.yaml');
  }
  const loaded = loadProject(target);
  if ('error' in loaded) return usage(io, loaded.error);
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(parseYaml(readFileSync(configPath, 'utf8')) as unknown, env);
  } catch (error) {
    return usage(io, `${configPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const model = parseProject(loaded.project).model;
  const player = (endpoint: EndpointConfig): Player => ({
    engine: createRemoteEngine(
      { kind: endpoint.provider, baseUrl: endpoint.baseUrl },
      endpoint.keyVar === undefined ? undefined : env[endpoint.keyVar],
    ),
    model: endpoint.model,
  });
  const samples = config.sample
    ? sampleWithReport(buildGraph(model), config.sample).samples.map((s) => ({
        policies: s.policies,
        level: s.level,
      }))
    : [];
  const scenarios = config.handWritten ? handWrittenScenarios(model) : [];
  if (scenarios.length === 0 && samples.length === 0) {
    return usage(io, 'there is nothing to run: no hand-written scenarios and no "sample".');
  }
  const plan: RunPlan = {
    seed: config.sample?.seed ?? 1,
    projectHash: projectHash(loaded.project.files),
    scenarios: scenarios.map((scenario) => ({ scenario, source: 'hand-written' as const })),
    trials: config.trials,
    concurrency: config.concurrency,
    limits: { maxTurns: config.maxTurns, timeLimitMs: config.timeLimitS * 1000, maxToolRounds: 8 },
    ...(config.budget && { budget: config.budget }),
    agent: player(config.agent),
    ...(config.agent.ownAgent && { externalAgent: true }),
    user: player(config.user),
    ...(config.judge && { judge: player(config.judge) }),
    ...(samples.length > 0 && config.generator && { samples, generator: player(config.generator) }),
    // scenarios.yaml may word any prompt itself; run-started records whose each one was.
    prompts: projectPrompts(model),
    now: new Date().toISOString(),
  };

  mkdirSync(config.out, { recursive: true });
  const log = createWriteStream(path.join(config.out, 'events.jsonl'));
  const events: SimEvent[] = [];
  const expected = (scenarios.length + samples.length) * config.trials;
  let ended = 0;
  const start = monotonicClock();
  const controller = new AbortController();
  const stop = () => {
    io.err('policylab: stopping; dialogues in flight end as "cancelled".\n');
    controller.abort();
  };
  process.once('SIGINT', stop);
  try {
    await runSimulation(model, plan, {
      runtime: platformRuntime,
      clock: () => Math.round(monotonicClock() - start),
      prices: {},
      signal: controller.signal,
      emit: (event) => {
        events.push(event);
        log.write(`${JSON.stringify(event)}\n`);
        if (event.type === 'dialogue-ended') {
          ended++;
          io.err(`[${ended}/${expected}] ${event.dialogue}: ${event.reason}\n`);
        }
      },
      onGenerationFailure: (failure) => {
        io.err(
          `policylab: a scenario for ${failure.sample.policies.join(', ')} could not be generated: ${failure.error}\n`,
        );
      },
    });
  } finally {
    process.off('SIGINT', stop);
    await new Promise<void>((resolve) => log.end(resolve));
  }

  const facts = new Map(
    model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );
  const report = reportOf(events, facts);
  writeFileSync(
    path.join(config.out, 'summary.json'),
    `${JSON.stringify(summaryOf(report, config.threshold), null, 2)}\n`,
  );
  writeFileSync(path.join(config.out, 'junit.xml'), junitOf(report, loaded.project.name));
  const { overall, errors, generation } = report;
  if (generation && generation.failed.length > 0) {
    io.err(`policylab: ${generationLine(generation)}\n`);
  }
  const rate = Number.isFinite(overall.rate)
    ? `${(overall.rate * 100).toFixed(1)}%`
    : 'nothing judged';
  io.out(
    `${overall.passes} passed, ${overall.fails} failed, ${errors.total} errors · pass rate ${rate}` +
      (Number.isFinite(overall.rate)
        ? ` (95% CI ${(overall.low * 100).toFixed(1)}–${(overall.high * 100).toFixed(1)}%)`
        : '') +
      `\nWrote ${path.join(config.out, 'events.jsonl')}, summary.json and junit.xml.\n`,
  );
  if (!Number.isFinite(overall.rate)) return CODE.failed;
  if (config.threshold !== undefined && overall.rate < config.threshold) {
    io.err(`policylab: the pass rate is below the threshold of ${config.threshold * 100}%.\n`);
    return CODE.failed;
  }
  return CODE.ok;
}

/** "2 of 5 sampled combinations got no valid scenario", with each one's policies and error. */
function generationLine(generation: NonNullable<RunReport['generation']>): string {
  const { asked, failed } = generation;
  const each = failed.map((f) => `\n  ${f.policies.join(', ')} (level ${f.level}): ${f.error}`);
  return `${failed.length} of ${asked} sampled combination${asked === 1 ? '' : 's'} got no valid scenario:${each.join('')}`;
}

/** The summary written to summary.json: the report's figures, NaN written as null. */
function summaryOf(report: RunReport, threshold: number | undefined) {
  return {
    threshold: threshold ?? null,
    passed: threshold === undefined ? null : report.overall.rate >= threshold,
    ...report,
  };
}

function usage(io: CliIO, message: string): number {
  io.err(`policylab run: ${message}\n`);
  return CODE.usage;
}

/** Reads run.yaml, saying exactly what is wrong with it. */
function readConfig(raw: unknown, env: Readonly<Record<string, string | undefined>>) {
  const config = record(raw, 'the file');
  const models = record(config.models, '"models"');
  const agent = endpoint(models.agent, 'models.agent', env);
  const user = models.user === undefined ? agent : endpoint(models.user, 'models.user', env);
  const judge =
    models.judge === undefined ? undefined : endpoint(models.judge, 'models.judge', env);
  const generator =
    models.generator === undefined
      ? undefined
      : endpoint(models.generator, 'models.generator', env);
  const scenarios = config.scenarios ?? 'all';
  if (scenarios !== 'all' && scenarios !== 'none')
    throw new Error('"scenarios" must be all or none.');
  let sample: { seed: number; count: number; levels: { min: number; max: number } } | undefined;
  if (config.sample !== undefined) {
    const s = record(config.sample, '"sample"');
    const levels = s.levels ?? '4-8';
    const band =
      typeof levels === 'string' || typeof levels === 'number'
        ? /^(\d+)(?:-(\d+))?$/.exec(String(levels))
        : null;
    if (!band) throw new Error('"sample.levels" must be a level or a band such as 4-8.');
    sample = {
      seed: whole(s.seed ?? 1, 'sample.seed', -1e9, 1e9),
      count: whole(s.count ?? 10, 'sample.count', 1, 10_000),
      levels: { min: Number(band[1]), max: Number(band[2] ?? band[1]) },
    };
    if (!generator)
      throw new Error('"sample" needs a model to write scenarios: add models.generator.');
  }
  const budget = config.budget === undefined ? undefined : record(config.budget, '"budget"');
  const threshold = config.threshold === undefined ? undefined : Number(config.threshold);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) {
    throw new Error('"threshold" must be a number from 0 to 1.');
  }
  return {
    agent,
    user,
    judge,
    generator,
    handWritten: scenarios === 'all',
    sample,
    trials: whole(config.trials ?? 1, 'trials', 1, 100),
    concurrency: whole(config.concurrency ?? 4, 'concurrency', 1, 256),
    maxTurns: whole(config.max_turns ?? 10, 'max_turns', 1, 200),
    timeLimitS: whole(config.time_limit_s ?? 300, 'time_limit_s', 1, 86_400),
    budget: budget && {
      ...(budget.dollars !== undefined && { dollars: Number(budget.dollars) }),
      ...(budget.tokens !== undefined && {
        tokens: whole(budget.tokens, 'budget.tokens', 1, 1e12),
      }),
    },
    threshold,
    out: typeof config.out === 'string' ? config.out : 'policylab-run',
  };
}

function record(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${name} must be a mapping of settings.`);
  }
  return value as Record<string, unknown>;
}

function whole(value: unknown, name: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`"${name}" must be a whole number from ${min} to ${max}.`);
  return n;
}

function endpoint(
  value: unknown,
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): EndpointConfig {
  const e = record(value, name);
  if ('api_key' in e)
    throw new Error(
      `${name}: put the key in an environment variable and name it with api_key_env.`,
    );
  const provider = e.provider ?? 'openai';
  if (provider !== 'openai' && provider !== 'anthropic')
    throw new Error(`${name}.provider must be openai or anthropic.`);
  if (typeof e.base_url !== 'string') throw new Error(`${name}.base_url is missing.`);
  const problem = checkBaseUrl(e.base_url);
  if (problem !== undefined) throw new Error(`${name}.base_url: ${problem}`);
  if (typeof e.model !== 'string' || e.model.trim() === '')
    throw new Error(`${name}.model is missing.`);
  const keyVar = typeof e.api_key_env === 'string' ? e.api_key_env : undefined;
  if (keyVar !== undefined && env[keyVar] === undefined)
    throw new Error(`${name}: the environment variable ${keyVar} is not set.`);
  return { provider, baseUrl: e.base_url, model: e.model, keyVar, ownAgent: e.own_agent === true };
}
