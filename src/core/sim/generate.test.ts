import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from '../cel.ts';
import { parseProject } from '../format/parseProject.ts';
import type { ChatEngine, ChatRequest, ChatResponse } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { ScriptedAnswer } from '../../test/scriptedModels.ts';
import { instantRuntime, modelReply, queuedEngine } from '../../test/scriptedModels.ts';
import { miniProject } from '../testing/miniProject.ts';
import type { SimEvent } from './events.ts';
import type { GenerateDeps } from './generate.ts';
import { generateScenario, generateScenarios, scenarioGeneratorPrompt } from './generate.ts';

const mini = parseProject(miniProject()).model;

const runtime = instantRuntime;

const VALID = {
  persona: 'A hurried customer.',
  goal: 'Get a refund for order o3.',
  knows: ['order o3', 'user id u1'],
  unknown: ['the delivery date'],
  rows: { orders: [{ id: 'o3', user_id: 'u1', status: 'delivered', days_since_delivery: 40 }] },
  expected: {
    database: ['db.orders.exists(o, o.id == "o3" && o.status == "delivered")'],
    required_actions: ['get_user'],
    forbidden_actions: ['refund_order'],
    must_say: ['30 days'],
    must_not_say: [],
  },
};

/** Wrong in three ways: a row breaks its enum, an assertion does not parse, a tool is unknown. */
const INVALID = {
  ...VALID,
  rows: { orders: [{ id: 'o3', user_id: 'u1', status: 'lost', days_since_delivery: 40 }] },
  expected: {
    ...VALID.expected,
    database: ['db.orders.exists(o, o.id == "o3"'],
    forbidden_actions: ['refund_ordr'],
  },
};

/** A generator answering from a queue (an answer may be a function of the request). */
const scripted = (answers: ScriptedAnswer[]) => queuedEngine(answers, () => json(VALID));

function json(value: object): ChatResponse {
  return modelReply(JSON.stringify(value), [], { inputTokens: 1000, outputTokens: 200 });
}

function deps(engine: ChatEngine, more: Partial<GenerateDeps> = {}) {
  const events: SimEvent[] = [];
  let tick = 0;
  const given: GenerateDeps = {
    generator: { engine, model: 'gen-model' },
    runtime,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 30_000 },
    prices: { 'gen-model': { inputPerMillion: 1, outputPerMillion: 5 } },
    clock: () => (tick += 10),
    emit: (event) => events.push(event),
    ...more,
  };
  return { deps: given, events };
}

const SAMPLE = { policies: ['refund-window'], level: 3 };

describe('generateScenario', () => {
  it('asks for a scenario stressing the sample and returns it, checked', async () => {
    const generator = scripted([json(VALID)]);
    const { deps: d, events } = deps(generator.engine);
    const scenario = await generateScenario(mini, SAMPLE, 'gen-1', d);
    expect(scenario).toEqual({
      id: 'gen-1',
      policies: ['refund-window'],
      level: 3,
      persona: VALID.persona,
      goal: VALID.goal,
      knows: VALID.knows,
      unknown: VALID.unknown,
      rows: VALID.rows,
      expected: {
        database: VALID.expected.database,
        requiredActions: ['get_user'],
        forbiddenActions: ['refund_order'],
        mustSay: ['30 days'],
        mustNotSay: [],
      },
    });
    const [request] = generator.requests;
    expect(request?.responseSchema?.name).toBe('scenario');
    const prompt = request?.messages[0]?.content ?? '';
    expect(prompt).toContain('Refund only orders delivered within the last thirty days.');
    expect(prompt).not.toContain('- verify-identity [');
    expect(prompt).toContain('refund_order (write): Refund a delivered order.');
    expect(prompt).toContain('order_id: string (required); amount: number');
    expect(prompt).toContain('status string, one of ["delivered","refunded"]');
    expect(prompt).toContain('user_id string, references users');
    expect(prompt).toContain('{"id":"o1","user_id":"u1","status":"delivered"');
    expect(prompt).toContain('db.users.exists(r, r.id == "u1"');
    expect(events).toEqual([
      {
        type: 'usage',
        at: 20,
        role: 'generator',
        model: 'gen-model',
        inputTokens: 1000,
        outputTokens: 200,
        cost: 0.002,
        ms: 10,
      },
    ]);
  });

  it('sends an invalid scenario back with every problem named, then takes the fix', async () => {
    const generator = scripted([json(INVALID), json(VALID)]);
    const { deps: d, events } = deps(generator.engine);
    const scenario = await generateScenario(mini, SAMPLE, 'gen-1', d);
    expect(scenario.expected.forbiddenActions).toEqual(['refund_order']);
    expect(generator.requests).toHaveLength(2);
    const followUp = generator.requests[1]?.messages.at(-1)?.content ?? '';
    expect(followUp).toMatch(/Scenario row 1 of "orders" \(id "o3"\) is left out: .*status/);
    expect(followUp).toMatch(/expected\.database\[0\] .*Expected "\)"/);
    expect(followUp).toMatch(/"refund_ordr", which is not a tool\. Did you mean "refund_order"\?/);
    expect(generator.requests[1]?.messages.at(-2)).toEqual({
      role: 'assistant',
      content: JSON.stringify(INVALID),
    });
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(2);
  });

  it('gives up after maxRepairs with a schema-violation naming the problems', async () => {
    const generator = scripted([json(INVALID), json(INVALID), json(INVALID), json(VALID)]);
    const { deps: d, events } = deps(generator.engine);
    const failing = generateScenario(mini, SAMPLE, 'gen-1', d);
    await expect(failing).rejects.toBeInstanceOf(ModelError);
    const error = (await failing.catch((e: unknown) => e)) as ModelError;
    expect(error.kind).toBe('schema-violation');
    expect(error.modelFault).toBe(true);
    expect(error.message).toMatch(/still invalid after 2 request\(s\) to fix it/);
    expect(error.message).toMatch(/status/);
    expect(error.message).toMatch(/refund_ordr/);
    expect(generator.requests).toHaveLength(3);
    expect(events).toHaveLength(3);

    const once = scripted([json(INVALID), json(VALID)]);
    await expect(
      generateScenario(mini, SAMPLE, 'gen-1', deps(once.engine, { maxRepairs: 0 }).deps),
    ).rejects.toThrow(/is still invalid: /);
  });

  it('passes provider failures on and calls no model for an unknown policy', async () => {
    const down = scripted([new ModelError('auth', 'The key was refused.', { status: 401 })]);
    await expect(generateScenario(mini, SAMPLE, 'g', deps(down.engine).deps)).rejects.toThrow(
      'The key was refused.',
    );
    const none = scripted([]);
    await expect(
      generateScenario(mini, { policies: ['nope'], level: 1 }, 'g', deps(none.engine).deps),
    ).rejects.toThrow(RangeError);
    expect(none.requests).toHaveLength(0);
  });
});

describe('generateScenarios', () => {
  /** Valid for every sample about refunds; the identity-only one never gets its rows right. */
  const bySample = (request: ChatRequest) =>
    json(request.messages[0]?.content.includes('- refund-window [') ? VALID : INVALID);
  const SAMPLES = [
    { policies: ['refund-window'], level: 3 },
    { policies: ['verify-identity'], level: 2 },
    { policies: ['refund-window', 'verify-identity'], level: 5 },
  ];

  it('numbers scenarios by sample and keeps going past a failure', async () => {
    const generator = scripted(Array.from({ length: 9 }, () => bySample));
    const made: string[] = [];
    const { scenarios, failures } = await generateScenarios(mini, SAMPLES, {
      ...deps(generator.engine, { maxRepairs: 0 }).deps,
      concurrency: 2,
      onScenario: (s) => made.push(s.id),
    });
    expect(scenarios.map((s) => [s.id, s.level])).toEqual([
      ['gen-1', 3],
      ['gen-3', 5],
    ]);
    expect(failures).toEqual([
      {
        sample: SAMPLES[1],
        error: expect.stringMatching(/^The generated scenario for/) as string,
        attempts: 1,
      },
    ]);
    expect([...made].sort()).toEqual(['gen-1', 'gen-3']);
  });

  it('counts every answer of a failed sample, the repair of broken JSON included', async () => {
    const generator = scripted([modelReply('Sure! Here it is.'), modelReply('{"persona": ')]);
    const { failures } = await generateScenarios(mini, [SAMPLES[0] ?? SAMPLE], {
      ...deps(generator.engine).deps,
      concurrency: 1,
    });
    expect(failures).toEqual([
      {
        sample: SAMPLES[0],
        error: expect.stringMatching(/^The model answered badly twice/) as string,
        attempts: 2,
      },
    ]);
  });

  it('starts nothing more once cancelled or over budget, and counts no failure for it', async () => {
    const controller = new AbortController();
    const generator = scripted([
      (request) => {
        controller.abort();
        return bySample(request);
      },
    ]);
    const stopped = await generateScenarios(mini, SAMPLES, {
      ...deps(generator.engine, { signal: controller.signal }).deps,
    });
    expect(stopped.failures).toEqual([]);
    expect(generator.requests).toHaveLength(1);

    const broke = await generateScenarios(mini, SAMPLES, {
      ...deps(scripted([]).engine).deps,
      overBudget: () => true,
    });
    expect(broke).toEqual({ scenarios: [], failures: [] });
  });
});

describe('scenarioGeneratorPrompt', () => {
  it('writes its example conditions so they parse when a column is named with a word CEL keeps', () => {
    const project = miniProject();
    const model = parseProject({
      ...project,
      files: {
        ...project.files,
        'database.yaml': project.files['database.yaml']
          .replace('  - name: users\n    key: id', '  - name: users\n    key: in')
          .replace(
            '      id: { type: string }\n      name:',
            '      in: { type: string }\n      null:',
          )
          .replace('{ id: u1, name: Ada }', '{ in: u1, "null": Ada }')
          .replace('{ id: u2, name: Grace }', '{ in: u2, "null": Grace }'),
      },
    }).model;
    const prompt = scenarioGeneratorPrompt(model, { policies: [], level: 1 });
    const examples = prompt
      .split('\n')
      .filter((line) => line.startsWith('  ') && line.includes('db.users'));
    expect(examples).toHaveLength(4);
    expect(examples[0]).toBe('  db.users.exists(r, r["in"] == "u1" && r["null"] == "Ada")');
    for (const line of examples) expect(isCelProblem(compileCel(line.trim())), line).toBe(false);
  });
});
