import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { capturedIO as io, miniProjectFolder as project } from '../test/cliFolders.ts';
import type { TestServer } from '../test/servers/http.ts';
import { startOpenAIServer } from '../test/servers/openaiServer.ts';
import type { Project, RunPlan } from '../core/index.ts';
import { DEFAULT_PRICES, planRun, runSimulation } from '../core/index.ts';
import { loadProject } from './loadProject.ts';
import { report } from './reports.ts';
import { runRun } from './run.ts';

/** The project in `dir` as the CLI loads it. */
function loadMini(dir: string): Project {
  const loaded = loadProject(dir);
  if ('error' in loaded) throw new Error(loaded.error);
  return loaded.project;
}

const KEY = 'sk-cli-run-91c2e7';

describe('policylab run', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ requireKey: KEY });
  });
  afterAll(async () => {
    await server.close();
  });

  function config(dir: string, extra = '') {
    const file = path.join(dir, 'run.yaml');
    writeFileSync(
      file,
      `models:
  agent: { provider: openai, base_url: ${server.url}, model: m, api_key_env: RUN_KEY }
trials: 2
concurrency: 2
max_turns: 2
out: ${path.join(dir, 'out')}
${extra}`,
    );
    return file;
  }

  it('runs the scenarios, writes the log, a summary and JUnit XML, and gates on the threshold', async () => {
    const dir = project();
    const { io: cli, out, err } = io();
    const code = await runRun([dir, '--config', config(dir, 'threshold: 0.99')], cli, {
      RUN_KEY: KEY,
    });
    const events = readFileSync(path.join(dir, 'out', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events[0]?.type).toBe('run-started');
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    expect(err.join('')).toMatch(/\[2\/2\] late-refund#2/);
    const summary = JSON.parse(readFileSync(path.join(dir, 'out', 'summary.json'), 'utf8')) as {
      overall: { passes: number; fails: number };
      passed: boolean;
    };
    const junit = readFileSync(path.join(dir, 'out', 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="');
    expect(junit.match(/<testcase /g)).toHaveLength(2);
    expect(out.join('')).toMatch(/\d+ passed, \d+ failed, \d+ errors/);
    expect(code).toBe(summary.passed ? 0 : 1);
    for (const file of ['events.jsonl', 'summary.json', 'junit.xml']) {
      expect(readFileSync(path.join(dir, 'out', file), 'utf8')).not.toContain(KEY);
    }
  });

  it('runs one shard of the jobs with --shard K/N; the shards read as one run equal the whole', async () => {
    const runOf = async (shard?: string) => {
      const dir = project();
      const file = path.join(dir, 'run.yaml');
      writeFileSync(
        file,
        `models:
  agent: { provider: openai, base_url: ${server.url}, model: m, api_key_env: RUN_KEY }
trials: 6
concurrency: 1
max_turns: 2
out: ${path.join(dir, 'out')}
`,
      );
      const { io: cli } = io();
      const argv = [dir, '--config', file, ...(shard ? ['--shard', shard] : [])];
      expect(await runRun(argv, cli, { RUN_KEY: KEY })).toBeLessThan(2);
      return path.join(dir, 'out', 'events.jsonl');
    };
    const reportOfLogs = (logs: string) => {
      const { io: cli, out } = io();
      expect(report(logs, { format: 'json' }, cli)).toBe(0);
      const {
        wallMs: _w,
        msByRole: _m,
        usage: _u,
        ...rest
      } = JSON.parse(out.join('')) as Record<string, unknown>;
      return rest;
    };
    const whole = await runOf();
    const shards = [await runOf('1/3'), await runOf('2/3'), await runOf('3/3')];
    const started = shards.map(
      (log) => readFileSync(log, 'utf8').match(/"type":"dialogue-started"/g)?.length ?? 0,
    );
    expect(started.reduce((a, b) => a + b, 0)).toBe(6);
    expect(started.every((n) => n < 6)).toBe(true);
    expect(reportOfLogs(shards.join(','))).toEqual(reportOfLogs(whole));

    const { io: cli, err } = io();
    expect(await runRun([project(), '--config', 'run.yaml', '--shard', '4/3'], cli)).toBe(2);
    expect(err.join('')).toContain('--shard: K must be from 1 to N (3), not 4.');
  });

  it('sends an own agent only the conversation', async () => {
    const dir = project();
    const file = config(dir);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'api_key_env: RUN_KEY }',
        'api_key_env: RUN_KEY, own_agent: true }',
      ),
    );
    const before = server.requests.length;
    const { io: cli } = io();
    await runRun([dir, '--config', file], cli, { RUN_KEY: KEY });
    const first = readFileSync(path.join(dir, 'out', 'events.jsonl'), 'utf8').split('\n')[0] ?? '';
    expect(JSON.parse(first)).toMatchObject({ type: 'run-started', externalAgent: true });
    const bodies = server.requests
      .slice(before)
      .map((r) => r.body as { messages?: { role: string }[]; tools?: unknown });
    // Agent calls carry no tools and no system prompt; the simulated user's calls have its own.
    const agentCalls = bodies.filter((b) => !b.messages?.some((m) => m.role === 'system'));
    expect(agentCalls.length).toBeGreaterThan(0);
    expect(agentCalls.every((b) => b.tools === undefined)).toBe(true);
  });

  it('sends the project’s own prompts and logs whose each one was', async () => {
    const dir = project();
    writeFileSync(
      path.join(dir, 'scenarios.yaml'),
      `${MINI_FILES['scenarios.yaml']}prompts:\n  user_simulator: |-\n    OWN PROMPT. You want: {{goal}} Say ###STOP### when done.\n`,
    );
    const before = server.requests.length;
    const { io: cli } = io();
    await runRun([dir, '--config', config(dir)], cli, { RUN_KEY: KEY });
    const first = readFileSync(path.join(dir, 'out', 'events.jsonl'), 'utf8').split('\n')[0] ?? '';
    expect(JSON.parse(first)).toMatchObject({
      type: 'run-started',
      prompts: [
        { id: 'user-simulator', version: 1, source: 'project' },
        { id: 'ask-user', version: 1, source: 'built-in' },
      ],
    });
    const systems = server.requests
      .slice(before)
      .flatMap(
        (r) => (r.body as { messages?: { role: string; content: unknown }[] }).messages ?? [],
      )
      .filter((m) => m.role === 'system')
      .map((m) => m.content);
    expect(systems).toContain(
      'OWN PROMPT. You want: Get a refund for order o2. Say ###STOP### when done.',
    );
  });

  it('says which sampled combinations got no valid scenario, on stderr and in summary.json', async () => {
    const dir = project();
    const file = config(dir, 'sample: { count: 2, levels: 1-10, seed: 3 }\n');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'models:\n',
        `models:\n  generator: { provider: openai, base_url: ${server.url}, model: g, api_key_env: RUN_KEY }\n`,
      ),
    );
    const { io: cli, err } = io();
    await runRun([dir, '--config', file], cli, { RUN_KEY: KEY });
    const summary = JSON.parse(readFileSync(path.join(dir, 'out', 'summary.json'), 'utf8')) as {
      generation: { asked: number; written: number; failed: { policies: string[] }[] };
    };
    const events = readFileSync(path.join(dir, 'out', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    const failed = events.filter((e) => e.type === 'scenario-failed');
    // The test server's example scenarios name no real tool, so neither sample gets one.
    expect(failed).toHaveLength(2);
    expect(summary.generation).toMatchObject({ asked: 2, written: 0 });
    expect(summary.generation.failed).toHaveLength(2);
    expect(err.join('')).toContain(
      'policylab: 2 of 2 sampled combinations got no valid scenario:\n  refund-window (level 3): The generated scenario for refund-window is still invalid',
    );
  });

  it('explains a bad config and never takes a key from it', async () => {
    const dir = project();
    const cases: [(yaml: string) => string, RegExp][] = [
      [(yaml) => yaml.replace('trials: 2', 'trials: 0'), /"trials" must be a whole number from 1/],
      [(yaml) => `${yaml}threshold: 2\n`, /"threshold" must be a number from 0 to 1/],
      [(yaml) => `${yaml}sample: { count: 3 }\n`, /needs a model to write scenarios/],
      [(yaml) => `${yaml}seed: 4\n`, /"seed" is not a setting of run.yaml/],
      [
        (yaml) => `${yaml}max_tool_calls_in_a_row: 0\n`,
        /"max_tool_calls_in_a_row" must be a whole number from 1 to 200/,
      ],
      [(yaml) => `${yaml}prices: { m: { input: -1, output: 1 } }\n`, /"prices.m.input" must be/],
    ];
    for (const [edit, message] of cases) {
      const { io: cli, err } = io();
      const file = config(dir);
      writeFileSync(file, edit(readFileSync(file, 'utf8')));
      expect(await runRun([dir, '--config', file], cli, { RUN_KEY: KEY })).toBe(2);
      expect(err.join('')).toMatch(message);
    }
    const { io: cli, err } = io();
    const file = path.join(dir, 'keyed.yaml');
    writeFileSync(
      file,
      `models:\n  agent: { base_url: ${server.url}, model: m, api_key: ${KEY} }\n`,
    );
    expect(await runRun([dir, '--config', file], cli, {})).toBe(2);
    expect(err.join('')).toMatch(/environment variable/);
    expect(err.join('')).not.toContain(KEY);
  });

  it('plans with core planRun, as the page and Play do', async () => {
    const dir = project();
    const plans: RunPlan[] = [];
    const { io: cli } = io();
    await runRun(
      [dir, '--config', config(dir, 'budget: { tokens: 5000 }\nmax_tool_calls_in_a_row: 12\n')],
      cli,
      { RUN_KEY: KEY },
      (model, plan, deps) => {
        plans.push(plan);
        return runSimulation(model, plan, deps);
      },
    );
    const [plan] = plans;
    if (!plan) throw new Error('nothing was planned');
    const expected = planRun(loadMini(dir), {
      seed: 1,
      trials: 2,
      concurrency: 2,
      maxTurns: 2,
      maxToolRounds: 12,
      timeLimitMs: 300_000,
      budget: { tokens: 5000 },
      scenarios: 'all',
      agent: plan.agent,
      externalAgent: false,
      user: plan.user,
      prices: DEFAULT_PRICES,
      now: plan.now,
    });
    expect(expected.ok && expected.plan).toEqual(plan);
  });

  it('refuses a dollar budget it cannot keep: a model without a price', async () => {
    const dir = project();
    const { io: cli, err } = io();
    const file = config(dir, 'budget: { dollars: 5 }\n');
    expect(await runRun([dir, '--config', file], cli, { RUN_KEY: KEY })).toBe(2);
    expect(err.join('')).toContain(
      'A dollar budget needs the price of every model it pays for, and "m" has none.',
    );
  });
});

describe('policylab run: a run of errors cannot pass', () => {
  /** Every other dialogue's simulated user is refused by its provider; the rest go well. */
  let server: TestServer;
  let dialogues = 0;
  beforeAll(async () => {
    server = await startOpenAIServer({
      script: (request) => {
        const body = request.body as { tools?: unknown; messages?: unknown[] };
        if (body.tools) return { text: 'Your refund is not possible, sorry.' };
        if ((body.messages?.length ?? 0) > 2) return { text: 'Thanks. ###STOP###' };
        dialogues++;
        return dialogues % 2 === 0 ? { status: 401 } : { text: 'Refund order o2 please.' };
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  function config(dir: string, extra: string) {
    const file = path.join(dir, 'run.yaml');
    writeFileSync(
      file,
      `models:\n  agent: { provider: openai, base_url: ${server.url}, model: m }\ntrials: 4\nconcurrency: 1\nthreshold: 0\nout: ${path.join(dir, 'out')}\n${extra}`,
    );
    return file;
  }

  it('fails the gate when errors pass max_error_rate, whatever the pass rate, and says why', async () => {
    const dir = project();
    const { io: cli, out, err } = io();
    dialogues = 0;
    expect(await runRun([dir, '--config', config(dir, '')], cli, {})).toBe(1);
    expect(out.join('')).toContain('errors (2 provider error)');
    expect(err.join('')).toContain(
      '50.0% of the dialogues ended in errors, more than max_error_rate (10%)',
    );
    const summary = JSON.parse(readFileSync(path.join(dir, 'out', 'summary.json'), 'utf8')) as {
      passed: boolean;
      errorRate: number;
    };
    expect(summary).toMatchObject({ passed: false, errorRate: 0.5 });
    dialogues = 0;
    const lenient = io();
    expect(
      await runRun([dir, '--config', config(dir, 'max_error_rate: 0.5')], lenient.io, {}),
    ).toBe(0);
  });
});

describe('policylab run: the judge’s opinion', () => {
  /** The agent declines politely; the judge calls every policy violated, with no quote. */
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({
      script: (request) => {
        const body = request.body as {
          tools?: unknown;
          messages?: unknown[];
          response_format?: unknown;
        };
        if (body.response_format)
          return {
            text: JSON.stringify({
              violated: true,
              turn: null,
              reason: 'It felt rushed.',
              evidence: '',
            }),
          };
        if (body.tools) return { text: 'I am sorry, I cannot refund that order.' };
        return (body.messages?.length ?? 0) > 2
          ? { text: 'Thanks. ###STOP###' }
          : { text: 'Refund order o2 please, I am u2.' };
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  function config(dir: string, extra = '') {
    const file = path.join(dir, 'run.yaml');
    const endpoint = `{ provider: openai, base_url: ${server.url}, model: m }`;
    writeFileSync(
      file,
      `models:\n  agent: ${endpoint}\n  judge: ${endpoint}\ntrials: 1\nout: ${path.join(dir, 'out')}\n${extra}`,
    );
    return file;
  }

  it('prints it, writes it into JUnit, labelled as opinion, and gates on it only when asked', async () => {
    const dir = project();
    const { io: cli, out } = io();
    expect(await runRun([dir, '--config', config(dir)], cli, {})).toBe(0);
    expect(out.join('')).toContain('1 passed, 0 failed, 0 errors');
    // Two policies in play, both judged violated, where the checks found refund-window kept.
    expect(out.join('')).toContain(
      "Judge's opinion (not a verdict): 2 of 2 policy judgements found a violation; it agrees with the checks 0 of 1 times.",
    );
    const junit = readFileSync(path.join(dir, 'out', 'junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase [^>]*>\n {6}<system-out>Judge's opinion \(not a verdict\): refund-window violated/,
    );
    expect(junit).toContain('failures="0"');

    const gated = io();
    expect(await runRun([dir, '--config', config(dir, 'judge_gate: 0.5\n')], gated.io, {})).toBe(1);
    expect(gated.err.join('')).toContain(
      "the judge found the policies kept in 0.0% of its judgements, below judge_gate (50%). This gate rests on a model's opinion.",
    );
  });
});
