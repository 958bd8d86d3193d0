import type { LevelBand, ModelPrice, PriceTable } from '../core/index.ts';
import {
  DEFAULT_LEVELS,
  DEFAULT_MAX_TOOL_ROUNDS,
  DEFAULT_PRICES,
  MOST_TOOL_ROUNDS,
  checkBaseUrl,
  formatLevelBand,
  parseLevelBand,
} from '../core/index.ts';

// run.yaml, read and checked: every setting `policylab run` takes, with what is wrong said exactly.

/** A model endpoint as run.yaml names it; the key stays in the environment variable named. */
export interface EndpointConfig {
  readonly provider: 'openai' | 'anthropic';
  readonly baseUrl: string;
  readonly model: string;
  readonly keyVar: string | undefined;
  /** The endpoint is the user's own agent: it gets only the conversation. */
  readonly ownAgent: boolean;
}

/** The settings run.yaml may have. */
const SETTINGS = [
  'models',
  'scenarios',
  'sample',
  'trials',
  'concurrency',
  'max_turns',
  'max_tool_calls_in_a_row',
  'time_limit_s',
  'budget',
  'prices',
  'threshold',
  'max_error_rate',
  'judge_gate',
  'judge_decides',
  'judge_repeats',
  'out',
];

/**
 * The share of dialogues that may end in errors before a run fails whatever its pass rate: a
 * run of errors says nothing about the agent, so it cannot pass.
 */
const DEFAULT_MAX_ERROR_RATE = 0.1;

/** Reads run.yaml, saying exactly what is wrong with it. */
export function readConfig(raw: unknown, env: Readonly<Record<string, string | undefined>>) {
  const config = record(raw, 'the file');
  const unknown = Object.keys(config).filter((key) => !SETTINGS.includes(key));
  if (unknown.length > 0)
    throw new Error(
      `"${unknown[0] ?? ''}" is not a setting of run.yaml (they are: ${SETTINGS.join(', ')}).`,
    );
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
  let sample: { seed: number; count: number; levels: LevelBand } | undefined;
  if (config.sample !== undefined) {
    const s = record(config.sample, '"sample"');
    const levels = s.levels ?? formatLevelBand(DEFAULT_LEVELS);
    const read =
      typeof levels === 'string' || typeof levels === 'number'
        ? parseLevelBand(String(levels))
        : { problem: 'Levels must be a level or a band such as 4-8.' };
    if ('problem' in read) throw new Error(`"sample.levels": ${read.problem}`);
    sample = {
      seed: whole(s.seed ?? 1, 'sample.seed', -1e9, 1e9),
      count: whole(s.count ?? 10, 'sample.count', 1, 10_000),
      levels: read.band,
    };
    if (!generator)
      throw new Error('"sample" needs a model to write scenarios: add models.generator.');
  }
  const budget = config.budget === undefined ? undefined : record(config.budget, '"budget"');
  const threshold =
    config.threshold === undefined ? undefined : rate(config.threshold, 'threshold');
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
    maxToolRounds: whole(
      config.max_tool_calls_in_a_row ?? DEFAULT_MAX_TOOL_ROUNDS,
      'max_tool_calls_in_a_row',
      1,
      MOST_TOOL_ROUNDS,
    ),
    timeLimitS: whole(config.time_limit_s ?? 300, 'time_limit_s', 1, 86_400),
    budget: budget && {
      ...(budget.dollars !== undefined && { dollars: positive(budget.dollars, 'budget.dollars') }),
      ...(budget.tokens !== undefined && {
        tokens: whole(budget.tokens, 'budget.tokens', 1, 1e12),
      }),
    },
    threshold,
    maxErrorRate: rate(config.max_error_rate ?? DEFAULT_MAX_ERROR_RATE, 'max_error_rate'),
    judgeGate: config.judge_gate === undefined ? undefined : rate(config.judge_gate, 'judge_gate'),
    judgeDecides: flag(config.judge_decides, 'judge_decides', judge !== undefined),
    judgeRepeats: whole(config.judge_repeats ?? 1, 'judge_repeats', 1, 5),
    prices: readPrices(config.prices),
    out: typeof config.out === 'string' ? config.out : 'policylab-run',
  };
}

/**
 * The price table: PolicyLab's defaults (as the page has them), with run.yaml's `prices` added
 * or overriding by model name, in dollars per million tokens.
 */
function readPrices(raw: unknown): PriceTable {
  if (raw === undefined) return DEFAULT_PRICES;
  const table = record(raw, '"prices"');
  const prices: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  for (const [name, value] of Object.entries(table)) {
    const price = record(value, `prices.${name}`);
    prices[name] = {
      inputPerMillion: positive(price.input, `prices.${name}.input`),
      outputPerMillion: positive(price.output, `prices.${name}.output`),
    };
  }
  return prices;
}

/** A share from 0 to 1, read from run.yaml. */
function rate(value: unknown, name: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new Error(`"${name}" must be a number from 0 to 1.`);
  return n;
}

function positive(value: unknown, name: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`"${name}" must be a number of dollars, 0 or more.`);
  return n;
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

/** A yes/no setting; `judge_decides` needs a judge model to decide with. */
function flag(raw: unknown, name: string, judged: boolean): boolean {
  if (raw === undefined) return false;
  if (typeof raw !== 'boolean') throw new Error(`"${name}" must be true or false.`);
  if (raw && !judged)
    throw new Error(`"${name}: true" needs a judge model to decide with: add models.judge.`);
  return raw;
}
