import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import { miniProject } from '../testing/miniProject.ts';
import type { SimEvent, SimScenario } from './events.ts';
import { USER_STOP, projectPrompts } from './prompts.ts';
import { renderTranscript } from './judge.ts';
import type { GenerationFailure } from './generate.ts';
import type { RunPlan } from './run.ts';
import { reportOf } from './report.ts';
import { dialogueId, runSimulation } from './run.ts';
import { transcriptOf } from './transcript.ts';
import { testScenario } from '../testing/scenarios.ts';

const mini = parseProject(miniProject()).model;

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();
const reply = modelReply;

/**
 * A scripted agent that answers from what it has seen (so concurrent dialogues do not share a
 * queue): it looks the user up, refunds the order the goal names, then reports.
 */
const agent: ChatEngine = {
  chat(request: ChatRequest) {
    const tools = request.messages.filter((m) => m.role === 'tool').length;
    const asked = request.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join(' ');
    const order = /\bo\d\b/.exec(asked)?.[0] ?? 'o1';
    if (tools === 0)
      return Promise.resolve(reply('', [{ name: 'get_user', args: { user_id: 'u1' } }]));
    if (tools === 1)
      return Promise.resolve(reply('', [{ name: 'refund_order', args: { order_id: order } }]));
    return Promise.resolve(reply(`All done with ${order}.`));
  },
};

/** A simulated user that states its goal, then says goodbye. */
const user: ChatEngine = {
  chat(request: ChatRequest) {
    const system = request.messages[0]?.content ?? '';
    const goal = /What you want: (.*)/.exec(system)?.[1] ?? '';
    const spoken = request.messages.filter((m) => m.role === 'assistant').length;
    return Promise.resolve(
      reply(spoken === 0 ? `${goal} I am u1. Yes, go ahead.` : `Thanks. ${USER_STOP}`),
    );
  },
};

const scenario = (id: string, goal: string, database: string[]): SimScenario =>
  testScenario({ id, goal, expected: { database } });

const PLAN: RunPlan = {
  seed: 7,
  projectHash: 'abc',
  scenarios: [
    {
      scenario: scenario('fresh', 'Refund order o1.', [
        'db.orders.exists(o, o.id == "o1" && o.status == "refunded")',
      ]),
      source: 'hand-written',
    },
    {
      scenario: scenario('late', 'Refund order o2.', [
        'db.orders.exists(o, o.id == "o2" && o.status == "delivered")',
      ]),
      source: 'generated',
    },
  ],
  trials: 2,
  concurrency: 2,
  agent: { engine: agent, model: 'agent-model' },
  user: { engine: user, model: 'user-model' },
  now: '2026-11-21T12:00:00Z',
};

async function simulate(plan: RunPlan = PLAN, signal?: AbortSignal) {
  const events: SimEvent[] = [];
  const failures: GenerationFailure[] = [];
  let tick = 0;
  const reason = await runSimulation(mini, plan, {
    runtime,
    clock: () => tick++,
    prices: { 'agent-model': { inputPerMillion: 1000, outputPerMillion: 1000 } },
    emit: (event) => events.push(event),
    onGenerationFailure: (failure) => failures.push(failure),
    ...(signal && { signal }),
  });
  return { reason, events, failures };
}

/**
 * A judge that sees the late refund attempt in the transcript as a violation of the refund
 * window, quoting the call and naming its turn; every other policy and dialogue it finds kept.
 */
const judge: ChatEngine = {
  chat(request: ChatRequest) {
    const prompt = request.messages[0]?.content ?? '';
    const late =
      /\[(\d+)\] agent: \(no words\)\n {4}calls refund_order\(\{"order_id":"o2"\}\)/.exec(prompt);
    const verdict =
      prompt.includes('The policy (refund-window)') && late
        ? {
            violated: true,
            turn: Number(late[1]),
            reason: 'It tried to refund an order delivered 45 days ago.',
            evidence: 'refund_order({"order_id":"o2"})',
          }
        : { violated: false, turn: null, reason: 'Kept.', evidence: '' };
    return Promise.resolve(reply(JSON.stringify(verdict)));
  },
};

/** A generator whose every scenario asks for the fresh refund, written as the project allows. */
const generator: ChatEngine = {
  chat: () =>
    Promise.resolve(
      reply(
        JSON.stringify({
          persona: 'A generated customer.',
          goal: 'Refund order o1.',
          knows: ['user id u1'],
          unknown: [],
          rows: {},
          expected: {
            database: ['db.orders.exists(o, o.id == "o1" && o.status == "refunded")'],
            required_actions: ['refund_order'],
            forbidden_actions: [],
            must_say: [],
            must_not_say: [],
          },
        }),
      ),
    ),
};

const SAMPLES = [
  { policies: ['refund-window'], level: 3 },
  { policies: ['no-such-policy'], level: 1 },
];

describe('runSimulation', () => {
  it('runs every scenario k times and judges each dialogue as it ends', async () => {
    const { reason, events } = await simulate();
    expect(reason).toBe('done');
    expect(events[0]).toMatchObject({ type: 'run-started', seed: 7, trials: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    const ended = events.filter((e) => e.type === 'dialogue-ended').map((e) => e.dialogue);
    expect([...ended].sort()).toEqual(['fresh#1', 'fresh#2', 'late#1', 'late#2']);
    const checks = new Map(
      events.flatMap((e) => (e.type === 'checks' ? [[e.dialogue, e.findings] as const] : [])),
    );
    // The fresh refund meets its expectation; the late one is refused by the guard, so o2 stays.
    expect(checks.get(dialogueId('fresh', 0))?.every((f) => f.passed)).toBe(true);
    expect(
      checks.get(dialogueId('late', 1))?.find((f) => f.id === 'expected.database[0]')?.passed,
    ).toBe(true);
    // "o2 stays delivered" holds when the agent does nothing: that scenario proves little.
    const baselines = events.flatMap((e) =>
      e.type === 'scenario' ? [[e.scenario.id, e.baseline?.passes]] : [],
    );
    expect(baselines).toEqual([
      ['fresh', false],
      ['late', true],
    ]);
    const facts = new Map(
      mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
    );
    const report = reportOf(events, facts);
    expect(report.scenarios.map((s) => [s.id, s.passesIdle !== null])).toEqual([
      ['fresh', false],
      ['late', true],
    ]);
    expect(report.msByRole.agent).toBeGreaterThan(0);
    const refused = events.filter((e) => e.type === 'guard' && !e.allowed);
    expect(refused.map((e) => e.type === 'guard' && e.rule)).toEqual([
      'refund-late',
      'refund-late',
    ]);
  });

  it('writes the same log for the same plan and scripted answers', async () => {
    const first = await simulate({ ...PLAN, concurrency: 1 });
    const second = await simulate({ ...PLAN, concurrency: 1 });
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });

  it('stops cleanly when the budget is spent', async () => {
    // Each agent call costs 0.11 dollars at these prices.
    const { reason, events } = await simulate({
      ...PLAN,
      concurrency: 1,
      budget: { dollars: 0.2 },
    });
    expect(reason).toBe('budget');
    const endings = events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings).toEqual(['budget']);
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'budget' });
  });

  it('stops on cancel and keeps what finished', async () => {
    const controller = new AbortController();
    let seen = 0;
    const counting: ChatEngine = {
      chat: (request, options) => {
        if (++seen === 3) controller.abort();
        return user.chat(request, options);
      },
    };
    const { reason, events } = await simulate(
      { ...PLAN, concurrency: 1, user: { engine: counting, model: 'u' } },
      controller.signal,
    );
    expect(reason).toBe('cancelled');
    const endings = events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings.slice(0, -1).every((r) => r === 'user-done')).toBe(true);
    expect(endings.at(-1)).toBe('cancelled');
    expect(endings).toEqual(['user-done', 'cancelled']);
  });

  it('has the judge give its opinion per policy in play after each dialogue’s checks', async () => {
    const { reason, events } = await simulate({
      ...PLAN,
      judge: { engine: judge, model: 'judge-model' },
    });
    expect(reason).toBe('done');
    expect(events[0]).toMatchObject({
      models: { agent: 'agent-model', user: 'user-model', judge: 'judge-model' },
    });
    const judged = events.flatMap((e) => (e.type === 'judge' ? [e] : []));
    expect(judged.map((e) => [e.dialogue, e.policy, e.violated]).sort()).toEqual([
      ['fresh#1', 'refund-window', false],
      ['fresh#2', 'refund-window', false],
      ['late#1', 'refund-window', true],
      ['late#2', 'refund-window', true],
    ]);
    const late = judged.find((e) => e.dialogue === 'late#1');
    const attempt = events.find(
      (e) => e.type === 'tool-call' && e.dialogue === 'late#1' && e.tool === 'refund_order',
    );
    expect(late).toMatchObject({ evidence: 'refund_order({"order_id":"o2"})' });
    expect(late?.turn).toBe(attempt?.type === 'tool-call' ? attempt.turn : -1);
    for (const dialogue of ['fresh#1', 'late#2']) {
      const own = events.filter((e) => 'dialogue' in e && e.dialogue === dialogue);
      expect(own.slice(-3).map((e) => (e.type === 'usage' ? `usage:${e.role}` : e.type))).toEqual([
        'checks',
        'usage:judge',
        'judge',
      ]);
    }
  });

  it('judges no dialogue that ended in an error, and a failing judge fails nothing', async () => {
    const down: ChatEngine = {
      chat: () => Promise.reject(new ModelError('server', 'The provider failed (500).')),
    };
    const broken = await simulate({
      ...PLAN,
      agent: { engine: down, model: 'agent-model' },
      judge: { engine: judge, model: 'judge-model' },
    });
    const endings = broken.events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings.every((r) => r === 'provider-error')).toBe(true);
    expect(broken.events.some((e) => e.type === 'judge')).toBe(false);

    const failing = await simulate({ ...PLAN, judge: { engine: down, model: 'judge-model' } });
    expect(failing.reason).toBe('done');
    expect(failing.events.some((e) => e.type === 'judge')).toBe(false);
    expect(failing.events.filter((e) => e.type === 'checks')).toHaveLength(4);
    expect(failing.events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []))).toEqual([
      'user-done',
      'user-done',
      'user-done',
      'user-done',
    ]);
  });

  it('writes scenarios for the samples first and runs them with the hand-written ones', async () => {
    const { reason, events, failures } = await simulate({
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
    });
    expect(reason).toBe('done');
    expect(events[0]).toMatchObject({ models: { generator: 'gen-model' } });
    const announced = events.flatMap((e) =>
      e.type === 'scenario' ? [[e.scenario.id, e.source]] : [],
    );
    expect(announced).toEqual([
      ['fresh', 'hand-written'],
      ['late', 'generated'],
      ['gen-1', 'generated'],
    ]);
    const scenario = events.find((e) => e.type === 'scenario' && e.scenario.id === 'gen-1');
    expect(scenario?.type === 'scenario' && scenario.scenario.level).toBe(3);
    expect(events.filter((e) => e.type === 'usage' && e.role === 'generator')).toHaveLength(1);
    expect(failures).toEqual([
      { sample: SAMPLES[1], error: 'The project has no policy "no-such-policy".', attempts: 0 },
    ]);
    const started = events.flatMap((e) => (e.type === 'dialogue-started' ? [e.dialogue] : []));
    expect(started.slice(-2).sort()).toEqual(['gen-1#1', 'gen-1#2']);
    const checks = events.find((e) => e.type === 'checks' && e.dialogue === 'gen-1#1');
    expect(checks?.type === 'checks' && checks.findings.every((f) => f.passed)).toBe(true);
  });

  it('can be cancelled while it writes scenarios', async () => {
    const controller = new AbortController();
    const stalling: ChatEngine = {
      chat: (request, options) => {
        controller.abort();
        return generator.chat(request, options);
      },
    };
    const { reason, events } = await simulate(
      { ...PLAN, samples: SAMPLES, generator: { engine: stalling, model: 'gen-model' } },
      controller.signal,
    );
    expect(reason).toBe('cancelled');
    expect(events.some((e) => e.type === 'dialogue-started')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'cancelled' });
  });

  it('writes the same log twice with generation and the judge', async () => {
    const plan: RunPlan = {
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
      judge: { engine: judge, model: 'judge-model' },
    };
    const first = await simulate(plan);
    const second = await simulate(plan);
    expect(first.events.some((e) => e.type === 'judge')).toBe(true);
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });
});

describe('resuming an interrupted run', () => {
  it('keeps judged dialogues, runs the rest (cut-off ones again), and reports as if never cut', async () => {
    const whole = await simulate({ ...PLAN, concurrency: 1 });
    // Cut the log as a reload would: after the second dialogue started, before it was judged.
    const secondStart = whole.events.findIndex(
      (e) => e.type === 'dialogue-started' && e.dialogue === dialogueId('fresh', 1),
    );
    const cut = whole.events.slice(0, secondStart + 3);
    const resumed: SimEvent[] = [];
    let tick = 1000;
    const reason = await runSimulation(
      mini,
      { ...PLAN, concurrency: 1 },
      {
        runtime,
        clock: () => tick++,
        prices: {},
        emit: (event) => resumed.push(event),
        previous: cut,
      },
    );
    expect(reason).toBe('done');
    expect(resumed[0]).toEqual({ type: 'run-resumed', at: 1000, rerun: [dialogueId('fresh', 1)] });
    expect(resumed.some((e) => e.type === 'run-started' || e.type === 'scenario')).toBe(false);
    const started = resumed.flatMap((e) => (e.type === 'dialogue-started' ? [e.dialogue] : []));
    expect(started).toEqual(['fresh#2', 'late#1', 'late#2']);

    const facts = new Map(
      mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
    );
    const before = reportOf(whole.events, facts);
    const after = reportOf([...cut, ...resumed], facts);
    expect(after.progress).toMatchObject({ dialoguesEnded: 4, running: 0, ended: 'done' });
    expect(after.dialogues.map((d) => [d.dialogue, d.verdict])).toEqual(
      before.dialogues.map((d) => [d.dialogue, d.verdict]),
    );
    expect(transcriptOf([...cut, ...resumed], 'fresh#2').messages).toEqual(
      transcriptOf(whole.events, 'fresh#2').messages,
    );
  });
});

describe('a sample the generator cannot write a scenario for', () => {
  /** A generator whose scenarios always name a table the project does not have. */
  const hopeless: ChatEngine = {
    chat: () =>
      Promise.resolve(
        reply(
          JSON.stringify({
            persona: 'P.',
            goal: 'G.',
            knows: [],
            unknown: [],
            rows: { nowhere: [{ id: 1 }] },
            expected: {
              database: [],
              required_actions: [],
              forbidden_actions: [],
              must_say: [],
              must_not_say: [],
            },
          }),
        ),
      ),
  };
  const facts = new Map(
    mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );

  it('leaves a scenario-failed event per failure, in the samples’ order, and the report counts it', async () => {
    const plan: RunPlan = {
      ...PLAN,
      scenarios: [],
      samples: [{ policies: ['refund-window'], level: 3 }, ...SAMPLES],
      generator: { engine: hopeless, model: 'gen-model' },
      maxRepairs: 1,
    };
    const { events, failures } = await simulate(plan);
    const failed = events.flatMap((e) => (e.type === 'scenario-failed' ? [e] : []));
    expect(failed.map(({ at: _, ...e }) => e)).toEqual([
      {
        type: 'scenario-failed',
        sample: { policies: ['refund-window'], level: 3 },
        error: expect.stringMatching(
          /^The generated scenario for refund-window is still invalid after 1 request/,
        ) as string,
        attempts: 2,
      },
      {
        type: 'scenario-failed',
        sample: { policies: ['refund-window'], level: 3 },
        error: expect.stringMatching(/still invalid/) as string,
        attempts: 2,
      },
      {
        type: 'scenario-failed',
        sample: { policies: ['no-such-policy'], level: 1 },
        error: 'The project has no policy "no-such-policy".',
        attempts: 0,
      },
    ]);
    // The callback still hears of each, as before.
    expect(failures.map((f) => f.sample.policies)).toEqual([
      ['refund-window'],
      ['refund-window'],
      ['no-such-policy'],
    ]);
    expect(reportOf(events, facts).generation).toEqual({
      asked: 3,
      written: 0,
      failed: failed.map((e) => ({
        policies: e.sample.policies,
        level: e.sample.level,
        error: e.error,
        attempts: e.attempts,
      })),
    });
    const again = await simulate(plan);
    expect(JSON.stringify(again.events)).toBe(JSON.stringify(events));
  });

  it('reports written and failed samples apart from the plan’s own scenarios', async () => {
    const { events } = await simulate({
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
    });
    expect(reportOf(events, facts).generation).toMatchObject({
      asked: 2,
      written: 1,
      failed: [{ policies: ['no-such-policy'], level: 1, attempts: 0 }],
    });
    expect(reportOf((await simulate()).events, facts).generation).toBeNull();
  });
});

describe('a project with its own prompts', () => {
  const scenarios = `${miniProject().files['scenarios.yaml']}prompts:
  user_simulator: |-
    You play {{persona}}
    What you want: {{goal}}
    Say ${USER_STOP} when done.
  policy_judge: |-
    JUDGE {{policy_id}}: {{policy}}
    CONVERSATION:
    {{transcript}}
`;
  const own = parseProject(miniProject({ 'scenarios.yaml': scenarios })).model;

  it('sends exactly its texts to the simulated user and the judge, and logs their sources', async () => {
    const users: ChatRequest[] = [];
    const judges: ChatRequest[] = [];
    const listening = (engine: ChatEngine, into: ChatRequest[]): ChatEngine => ({
      chat: (request, options) => {
        into.push(request);
        return engine.chat(request, options);
      },
    });
    const events: SimEvent[] = [];
    let tick = 0;
    await runSimulation(
      own,
      {
        ...PLAN,
        scenarios: PLAN.scenarios.slice(0, 1),
        trials: 1,
        user: { engine: listening(user, users), model: 'user-model' },
        judge: { engine: listening(judge, judges), model: 'judge-model' },
        prompts: projectPrompts(own),
      },
      { runtime, clock: () => tick++, prices: {}, emit: (e) => events.push(e) },
    );
    expect(users[0]?.messages[0]).toEqual({
      role: 'system',
      content: `You play A customer.\nWhat you want: Refund order o1.\nSay ${USER_STOP} when done.`,
    });
    const policy = own.policies.find((p) => p.id === 'refund-window');
    const transcript = renderTranscript(transcriptOf(events, 'fresh#1'));
    expect(judges.map((r) => r.messages[0]?.content)).toEqual([
      `JUDGE refund-window: ${policy?.text ?? ''}\nCONVERSATION:\n${transcript}`,
    ]);
    expect(transcript).toMatch(/^\[0\] user: Refund order o1\./);
    expect(events[0]).toMatchObject({
      type: 'run-started',
      prompts: [
        { id: 'user-simulator', version: 1, source: 'project' },
        { id: 'ask-user', version: 1, source: 'built-in' },
        { id: 'policy-judge', version: 1, source: 'project' },
      ],
    });
  });

  it('logs the built-in prompts of a plan that gives none, the generator’s only when it writes', async () => {
    const { events } = await simulate({
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
    });
    expect(events[0]?.type === 'run-started' && events[0].prompts).toEqual([
      { id: 'user-simulator', version: 1, source: 'built-in' },
      { id: 'ask-user', version: 1, source: 'built-in' },
      { id: 'scenario-generator', version: 1, source: 'built-in' },
    ]);
  });
});
