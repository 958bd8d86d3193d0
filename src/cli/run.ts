import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createRemoteEngine } from '../adapters/models/remote.ts';
import { monotonicClock, platformRuntime } from '../adapters/models/runtime.ts';
import type { Player, RunReport, Shard } from '../core/index.ts';
import {
  ENDING_LABELS,
  createRecorder,
  parseShard,
  planRun,
  reportOf,
  runClock,
  spendingWords,
} from '../core/index.ts';
import type { Simulator } from '../workers/simulationClient.ts';
import { createWorkerSimulator } from '../workers/simulationClient.ts';
import { loadProject } from './loadProject.ts';
import type { EndpointConfig } from './runConfig.ts';
import { readConfig } from './runConfig.ts';
import { simulationThread } from './simulationThread.ts';
import type { CliIO } from './main.ts';
import { junitOf } from './junit.ts';

/** 0: the pass rate met the threshold; 1: it did not (or nothing could be judged); 2: bad input. */
const CODE = { ok: 0, failed: 1, usage: 2 } as const;

/** The text of `policylab run --help`. */
export function runHelpText(): string {
  return `policylab run: run a whole evaluation headless, against remote endpoints.

Usage:
  policylab run <project> --config run.yaml [--shard K/N]

--shard K/N runs only the K-th of N disjoint slices of the scenario × trial jobs (stable: every
machine of a CI matrix computes the same slices); "policylab report" and "compare" read the N
logs as one run. The seed, trials and models must be the same on every shard.

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
  max_tool_calls_in_a_row: 30   # before the agent (or simulated user) must speak; 30 by default
  time_limit_s: 300      # per dialogue
  budget: { dollars: 5, tokens: 2000000 }   # a dollar budget needs a price for every model
  prices:                # $ per million tokens, added to (or overriding) the built-in table of
    my-model: { input: 0.5, output: 1.5 }     # well-known models; failed calls are paid for too
  threshold: 0.8         # exit 1 when the pass rate is below it
  max_error_rate: 0.1    # exit 1 when more dialogues than this end in errors (default 0.1)
  judge_gate: 0.9        # optional: exit 1 when the judge found policies kept in fewer of its
                         # judgements than this (a model's opinion, so off unless you set it)
  out: policylab-run     # writes events.jsonl, summary.json and junit.xml there

The prompts written under "prompts:" in the project's scenarios.yaml replace the built-in ones;
events.jsonl records which were used. Progress, and the sampled combinations the generator
could not write a valid scenario for, go to stderr. API keys come from the environment
variables named; they are never written to any output.
`;
}

/**
 * Runs `policylab run ...` and returns the exit code. `simulate` runs the planned simulation
 * (core's `runSimulation` in a thread, so Ctrl+C and the dialogue time limit end a condition
 * that never finishes; a test may watch what it is given).
 */
export async function runRun(
  argv: readonly string[],
  io: CliIO,
  env: Readonly<Record<string, string | undefined>> = process.env,
  simulate: Simulator = createWorkerSimulator(simulationThread),
): Promise<number> {
  const [target, flag, configPath, ...extra] = argv;
  if (target === undefined || target === '--help' || target === '-h') {
    io.out(runHelpText());
    return target === undefined ? CODE.usage : CODE.ok;
  }
  let shard: Shard | undefined;
  if (extra[0] === '--shard' && extra.length === 2) {
    const read = parseShard(extra[1] ?? '');
    if ('problem' in read) return usage(io, `--shard: ${read.problem}`);
    shard = read;
  }
  if (flag !== '--config' || configPath === undefined || (extra.length > 0 && !shard)) {
    return usage(io, 'the form is: policylab run <project> --config run.yaml [--shard K/N]');
  }
  const loaded = loadProject(target);
  if ('error' in loaded) return usage(io, loaded.error);
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(parseYaml(readFileSync(configPath, 'utf8')) as unknown, env);
  } catch (error) {
    return usage(io, `${configPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const player = (endpoint: EndpointConfig): Player => ({
    engine: createRemoteEngine(
      { kind: endpoint.provider, baseUrl: endpoint.baseUrl },
      endpoint.keyVar === undefined ? undefined : env[endpoint.keyVar],
    ),
    model: endpoint.model,
  });
  const planned = planRun(loaded.project, {
    seed: config.sample?.seed ?? 1,
    trials: config.trials,
    concurrency: config.concurrency,
    maxTurns: config.maxTurns,
    maxToolRounds: config.maxToolRounds,
    ...(config.judgeDecides && { judgeDecides: true }),
    ...(config.judgeRepeats > 1 && { judgeRepeats: config.judgeRepeats }),
    timeLimitMs: config.timeLimitS * 1000,
    ...(config.budget && { budget: config.budget }),
    scenarios: config.handWritten ? 'all' : 'none',
    ...(config.sample && {
      generate: { count: config.sample.count, levels: config.sample.levels },
    }),
    agent: player(config.agent),
    externalAgent: config.agent.ownAgent,
    user: player(config.user),
    ...(config.judge && { judge: player(config.judge) }),
    ...(config.generator && { generator: player(config.generator) }),
    prices: config.prices,
    now: new Date().toISOString(),
    ...(shard && { shard }),
  });
  if (!planned.ok) return usage(io, `${configPath}: ${planned.problem}`);
  const { plan, model } = planned;

  mkdirSync(config.out, { recursive: true });
  const log = createWriteStream(path.join(config.out, 'events.jsonl'));
  const expected = (plan.scenarios.length + (plan.samples?.length ?? 0)) * plan.trials;
  let ended = 0;
  const recorder = createRecorder({
    sink: {
      // Events come in order, one at a time: each line is written as its event happens.
      append: (_from, events) =>
        new Promise<void>((resolve, reject) => {
          log.write(events.map((e) => `${JSON.stringify(e)}\n`).join(''), (error) => {
            if (error) reject(error);
            else resolve();
          });
        }),
    },
    batchMs: 0,
    scheduler: {
      setTimeout,
      clearTimeout: (timer) => {
        clearTimeout(timer as NodeJS.Timeout);
      },
    },
    onSaveError: (error) => {
      io.err(`policylab: events.jsonl could not be written: ${messageOf(error)}\n`);
    },
  });
  const controller = new AbortController();
  const stop = () => {
    io.err('policylab: stopping; dialogues in flight end as "cancelled".\n');
    controller.abort();
  };
  process.once('SIGINT', stop);
  try {
    await simulate(model, plan, {
      runtime: platformRuntime,
      clock: runClock(monotonicClock),
      signal: controller.signal,
      emit: (event) => {
        recorder.emit(event);
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
    await recorder.close();
    await new Promise<void>((resolve) => log.end(resolve));
  }
  const events = recorder.events();

  const facts = new Map(
    model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );
  const report = reportOf(events, facts);
  writeFileSync(
    path.join(config.out, 'summary.json'),
    `${JSON.stringify(summaryOf(report, config), null, 2)}\n`,
  );
  writeFileSync(path.join(config.out, 'junit.xml'), junitOf(report, loaded.project.name));
  const { overall, errors, generation } = report;
  if (generation && generation.failed.length > 0) {
    io.err(`policylab: ${generationLine(generation)}\n`);
  }
  const rate = Number.isFinite(overall.rate)
    ? `${(overall.rate * 100).toFixed(1)}%`
    : 'nothing judged';
  const byReason = errors.byReason.map((e) => `${e.count} ${ENDING_LABELS[e.reason].short}`);
  const unattributed = new Set(report.unattributed.map((u) => u.dialogue)).size;
  io.out(
    `${overall.passes} passed, ${overall.fails} failed, ${errors.total} errors` +
      (byReason.length > 0 ? ` (${byReason.join(', ')})` : '') +
      (report.suspect > 0
        ? `, ${report.suspect} simulator suspect (not counted; review them)`
        : '') +
      ` · pass rate ${rate}` +
      (Number.isFinite(overall.rate)
        ? ` (95% CI ${(overall.low * 100).toFixed(1)}–${(overall.high * 100).toFixed(1)}%)`
        : '') +
      (unattributed > 0
        ? `\n${unattributed} failed dialogue${unattributed === 1 ? '' : 's'} name no policy (unattributed); see summary.json.`
        : '') +
      (asideLine(report) ?? '') +
      (judgeLine(report) ?? '') +
      `\n${spentLine(report)}` +
      `\nWrote ${path.join(config.out, 'events.jsonl')}, summary.json and junit.xml.\n`,
  );
  const problem = gateProblem(report, config);
  if (problem === undefined) return CODE.ok;
  io.err(`policylab: ${problem}\n`);
  return CODE.failed;
}

/** "Spent: 12 model calls · ≈3456 tokens · ≈$0.0123 (… estimated from characters)". */
function spentLine(report: RunReport): string {
  const { summary, estimated } = spendingWords(report.usage);
  const stopped =
    report.progress.ended === 'budget'
      ? ` The budget was spent, so the run stopped with ${report.progress.dialoguesExpected - report.progress.dialoguesEnded} dialogue(s) not run.`
      : '';
  return `Spent: ${summary}${estimated === undefined ? '' : ` (${estimated})`}.${stopped}`;
}

/** "2 of 5 sampled combinations got no valid scenario", with each one's policies and error. */
function generationLine(generation: NonNullable<RunReport['generation']>): string {
  const { asked, failed } = generation;
  const each = failed.map((f) => `\n  ${f.policies.join(', ')} (level ${f.level}): ${f.error}`);
  return `${failed.length} of ${asked} sampled combination${asked === 1 ? '' : 's'} got no valid scenario:${each.join('')}`;
}

/** The summary written to summary.json: the report's figures, NaN written as null. */
/**
 * The summary written to summary.json: the gate's settings and verdict, then the report's figures
 * (NaN written as null). `passed` is what the exit code says.
 */
function summaryOf(report: RunReport, gate: Gate) {
  return {
    threshold: gate.threshold ?? null,
    maxErrorRate: gate.maxErrorRate,
    errorRate: errorRateOf(report),
    judgeGate: gate.judgeGate ?? null,
    passed: gateProblem(report, gate) === undefined,
    ...report,
  };
}

/**
 * What a run must meet to pass: a pass rate, a share of errors it may not exceed, and, when set,
 * the share of the judge's policy judgements that found the policy kept.
 */
interface Gate {
  readonly threshold: number | undefined;
  readonly maxErrorRate: number;
  readonly judgeGate: number | undefined;
}

/**
 * What neither passes nor fails a dialogue but a person must see: findings left unclear (a hedged
 * confirmation) and refused attempts at what a policy forbids; none when there are neither.
 */
function asideLine(report: RunReport): string | undefined {
  const finished = report.dialogues.filter((d) => d.verdict === 'pass' || d.verdict === 'fail');
  const unclear = finished.filter((d) => d.unclear.length > 0).length;
  const attempts = finished.reduce(
    (n, d) => n + d.noted.length + d.breaches.filter((b) => b.attempt).length,
    0,
  );
  const noted = finished.reduce((n, d) => n + d.noted.length, 0);
  const parts = [
    ...(unclear > 0
      ? [
          `${unclear} dialogue${unclear === 1 ? '' : 's'} with an unclear finding for a person to read`,
        ]
      : []),
    ...(attempts > 0
      ? [
          `${attempts} refused attempt${attempts === 1 ? '' : 's'} at what a policy forbids${noted > 0 ? ` (${noted} only noted)` : ''}`,
        ]
      : []),
  ];
  return parts.length === 0 ? undefined : `\n${parts.join('; ')}; see summary.json.`;
}

/** The judge model's opinions, as a line of their own labelled as opinion; none without a judge. */
function judgeLine(report: RunReport): string | undefined {
  const { byPolicy, agreement, dialoguesJudged, failed } = report.judgeOpinion;
  const failure =
    failed.judgements > 0
      ? `\nError: the judge failed ${failed.judgements} judgement${failed.judgements === 1 ? '' : 's'} in ${failed.dialogues} dialogue${failed.dialogues === 1 ? '' : 's'} (nothing was found there; it was not heard)${failed.first === undefined ? '' : `: ${failed.first}`}`
      : '';
  const { spread } = report.judgeOpinion;
  const repeated =
    spread.repeated > 0
      ? ` Asked more than once, it answered the same every time for ${spread.unanimous} of ${spread.repeated} policy judgements.`
      : '';
  const decides =
    report.run && report.run.judgeDecides.length > 0
      ? `\nDecided by a model (the judge; no check covers them): ${report.run.judgeDecides.join(', ')}.`
      : '';
  if (dialoguesJudged === 0) return failure === '' ? undefined : failure;
  const judged = byPolicy.reduce((n, o) => n + o.judged, 0);
  const violated = byPolicy.reduce((n, o) => n + o.violated, 0);
  const agrees =
    agreement.compared === 0
      ? ''
      : `; it agrees with the checks ${agreement.agreed} of ${agreement.compared} times`;
  return `${failure}\nJudge's opinion (not a verdict): ${violated} of ${judged} policy judgements found a violation${agrees}.${repeated}${decides}`;
}

/** The share of the judge's policy judgements that found the policy kept; NaN without any. */
function judgeKeptRate(report: RunReport): number {
  const judged = report.judgeOpinion.byPolicy.reduce((n, o) => n + o.judged, 0);
  const violated = report.judgeOpinion.byPolicy.reduce((n, o) => n + o.violated, 0);
  return judged === 0 ? Number.NaN : (judged - violated) / judged;
}

/** The share of finished dialogues that ended in errors. */
function errorRateOf(report: RunReport): number {
  const { passes, fails } = report.overall;
  const settled = passes + fails + report.errors.total;
  return settled === 0 ? 0 : report.errors.total / settled;
}

/** Why the run does not pass its gate, in words; undefined when it does. */
function gateProblem(report: RunReport, gate: Gate): string | undefined {
  const { rate } = report.overall;
  if (!Number.isFinite(rate)) return 'no dialogue could be judged.';
  const errorRate = errorRateOf(report);
  if (errorRate > gate.maxErrorRate)
    return `${(errorRate * 100).toFixed(1)}% of the dialogues ended in errors, more than max_error_rate (${gate.maxErrorRate * 100}%); the pass rate cannot be trusted.`;
  if (gate.threshold !== undefined && rate < gate.threshold)
    return `the pass rate is below the threshold of ${gate.threshold * 100}%.`;
  if (gate.judgeGate !== undefined) {
    const kept = judgeKeptRate(report);
    if (!Number.isFinite(kept)) return 'judge_gate is set, but the judge gave no opinion.';
    if (kept < gate.judgeGate)
      return `the judge found the policies kept in ${(kept * 100).toFixed(1)}% of its judgements, below judge_gate (${gate.judgeGate * 100}%). This gate rests on a model's opinion.`;
  }
  return undefined;
}

function usage(io: CliIO, message: string): number {
  io.err(`policylab run: ${message}\n`);
  return CODE.usage;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
