import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { ProjectModel } from '../format/model.ts';
import type { ChatResponse } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { ScriptedAnswer } from '../../test/scriptedModels.ts';
import { modelReply, queuedEngine, waitingRuntime } from '../../test/scriptedModels.ts';
import { miniProject, miniWith } from '../testing/miniProject.ts';
import type { DialogueDeps, DialogueLimits } from './dialogue.ts';
import { runDialogue } from './dialogue.ts';
import type { SimEvent, SimScenario } from './events.ts';
import { CHAT_OPENS, USER_STOP } from './prompts.ts';
import { testScenario } from '../testing/scenarios.ts';

const mini = parseProject(miniProject()).model;

const SCENARIO = testScenario({
  id: 'refund-o1',
  policies: ['refund-window', 'verify-identity'],
  persona: 'A patient customer.',
  knows: ['order o1', 'user id u1'],
});

const say = (content: string) => modelReply(content);

let ids = 0;
const calls = (...list: [string, Record<string, unknown>][]) =>
  modelReply(
    '',
    list.map(([name, args]) => ({ id: `c${++ids}`, name, args })),
  );

/** An engine answering from a queue; when it runs out, the simulated user says goodbye. */
const scripted = (answers: ScriptedAnswer[]) =>
  queuedEngine(answers, () => say(`nothing left ${USER_STOP}`));
const TIME_LIMIT = 60_000;

function run(
  agentReplies: ScriptedAnswer[],
  userReplies: ScriptedAnswer[],
  options: {
    model?: ProjectModel;
    scenario?: SimScenario;
    limits?: Partial<DialogueLimits>;
    deps?: Partial<DialogueDeps>;
  } = {},
) {
  ids = 0;
  const events: SimEvent[] = [];
  const agent = scripted(agentReplies);
  const user = scripted(userReplies);
  const { runtime, expire: expireSleeps } = waitingRuntime();
  const expire = () => {
    expireSleeps(TIME_LIMIT);
  };
  let tick = 0;
  const running = runDialogue(
    options.model ?? mini,
    options.scenario ?? SCENARIO,
    { dialogue: 'd1', trial: 0 },
    {
      agent: { engine: agent.engine, model: 'agent-model' },
      user: { engine: user.engine, model: 'user-model' },
      runtime,
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 30_000 },
      clock: () => tick++,
      now: '2026-11-21T12:00:00Z',
      prices: { 'agent-model': { inputPerMillion: 1, outputPerMillion: 2 } },
      emit: (event) => events.push(event),
      ...options.deps,
    },
    { maxTurns: 5, timeLimitMs: TIME_LIMIT, maxToolRounds: 4, ...options.limits },
  );
  return { running, events, agent, user, expire };
}

const types = (events: SimEvent[]) => events.map((e) => e.type).filter((t) => t !== 'usage');

describe('runDialogue', () => {
  it('runs a refund end to end: guard checks, the database changes, the user ends it', async () => {
    const { running, events, agent, user } = run(
      [
        calls(['get_user', { user_id: 'u1' }]),
        calls(['refund_order', { order_id: 'o1' }]),
        say('Done, o1 is refunded.'),
      ],
      [say('Please refund order o1, I am u1.'), say(`Thanks! ${USER_STOP}`)],
    );
    const result = await running;
    expect(result.ending).toBe('user-done');
    expect(types(events)).toEqual([
      'dialogue-started',
      'message', // user asks
      'message', // agent (tool call)
      'tool-call',
      'guard',
      'tool-result',
      'message',
      'tool-call',
      'guard',
      'tool-result',
      'message', // agent answers
      'message', // user thanks
      'dialogue-ended',
    ]);
    const refund = events.filter((e) => e.type === 'tool-result')[1];
    expect(refund).toMatchObject({
      ok: true,
      changes: [{ table: 'orders', key: 'o1', kind: 'update' }],
    });
    expect(result.finalDb.orders?.find((o) => o.id === 'o1')?.status).toBe('refunded');
    expect(result.startDb.orders?.find((o) => o.id === 'o1')?.status).toBe('delivered');
    // The agent saw agent.md, the user's words and its tool results; the user saw the chat open.
    const last = agent.requests.at(-1);
    expect(last?.messages[0]).toEqual({ role: 'system', content: mini.prompt });
    expect(last?.messages[1]).toEqual({
      role: 'user',
      content: 'Please refund order o1, I am u1.',
    });
    expect(last?.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(user.requests[0]?.messages[1]).toEqual({ role: 'user', content: CHAT_OPENS });
    expect(last?.tools?.map((t) => t.name)).toEqual(['get_user', 'refund_order']);
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage.map((e) => [e.role, e.cost])).toContainEqual(['user', null]);
  });

  it('lets the caller watch each model answer stream in, per call and role', async () => {
    const heard: string[] = [];
    const { running } = run([say('Hello, I can help.')], [say('Hi.'), say(USER_STOP)], {
      deps: {
        onModelCall: (role) => {
          heard.push(`${role}:`);
          return (delta) => {
            heard.push(delta.kind === 'text' ? delta.text : `(${delta.name ?? ''})`);
          };
        },
      },
    });
    await running;
    expect(heard).toEqual(['user:', 'Hi.', 'agent:', 'Hello, I can help.', 'user:', USER_STOP]);
  });

  it('sends the user’s own agent only the conversation: no agent.md, no tools', async () => {
    const { running, agent } = run(
      [say('Sure, your refund is on its way.')],
      [say('Refund o1 please.'), say(USER_STOP)],
      { deps: { externalAgent: true } },
    );
    expect((await running).ending).toBe('user-done');
    expect(agent.requests[0]?.messages).toEqual([{ role: 'user', content: 'Refund o1 please.' }]);
    expect(agent.requests[0]?.tools).toBeUndefined();
  });

  it('sends a refusal back to the agent when the rule says message', async () => {
    const { running, events } = run(
      [
        calls(['get_user', { user_id: 'u2' }]),
        calls(['refund_order', { order_id: 'o2' }]),
        say('Sorry, o2 is too old.'),
      ],
      [say('Refund o2 please, I am u2.'), say(USER_STOP)],
    );
    expect((await running).ending).toBe('user-done');
    const guard = events.filter((e) => e.type === 'guard')[1];
    expect(guard).toMatchObject({
      allowed: false,
      rule: 'refund-late',
      policy: 'refund-window',
      fallback: 'message',
    });
    const result = events.filter((e) => e.type === 'tool-result')[1];
    expect(result).toMatchObject({
      ok: false,
      result: 'Refused: This order is outside the 30-day window.',
      changes: [],
    });
  });

  it('asks the simulated user when the rule says ask_user, and tells the agent the answer', async () => {
    const { running, events, user } = run(
      [calls(['refund_order', { order_id: 'o1' }]), say('Let me check first.')],
      [say('Refund o1.'), say('Sure, I am u1.'), say(USER_STOP)],
    );
    expect((await running).ending).toBe('user-done');
    expect(user.requests[1]?.messages.at(-1)?.content).toMatch(
      /wants to call refund_order .* Verify the customer first/,
    );
    const messages = events.filter((e) => e.type === 'message').map((e) => e.text);
    expect(messages).toContain('Sure, I am u1.');
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ ok: false });
    expect(result?.type === 'tool-result' && result.result).toMatch(/answered: "Sure, I am u1\."/);
  });

  it('sends the user simulator and ask-user prompts it is given, filled in', async () => {
    const { running, user } = run(
      [calls(['refund_order', { order_id: 'o1' }]), say('Let me check first.')],
      [say('Refund o1.'), say('Sure, I am u1.'), say(USER_STOP)],
      {
        deps: {
          prompts: {
            userSimulator: {
              id: 'user-simulator',
              version: 1,
              text: 'PLAY {{persona}} WANTING {{goal}} ({{knows}} / {{unknown}})',
              source: 'project',
            },
            askUser: {
              id: 'ask-user',
              version: 1,
              text: 'OK to run {{tool}}({{args}})? {{reason}}',
              source: 'project',
            },
          },
        },
      },
    );
    expect((await running).ending).toBe('user-done');
    expect(user.requests[0]?.messages[0]).toEqual({
      role: 'system',
      content:
        'PLAY A patient customer. WANTING Get a refund for order o1. (order o1; user id u1 / nothing in particular)',
    });
    expect(user.requests[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'OK to run refund_order({"order_id":"o1"})? Verify the customer first.',
    });
  });

  it('ends the dialogue when the rule says end', async () => {
    const model = parseProject(miniWith('rules.yaml', 'fallback: ask_user', 'fallback: end')).model;
    const { running } = run([calls(['refund_order', { order_id: 'o1' }])], [say('Refund o1.')], {
      model,
    });
    expect(await running).toMatchObject({
      ending: 'guard-end',
      detail: 'Verify the customer first.',
    });
  });

  it('stops at the turn limit and after too many tool rounds', async () => {
    const chatty = run(
      Array.from({ length: 10 }, () => say('Anything else?')),
      Array.from({ length: 10 }, () => say('Hmm.')),
      { limits: { maxTurns: 3 } },
    );
    expect((await chatty.running).ending).toBe('max-turns');
    expect(chatty.events.filter((e) => e.type === 'message' && e.speaker === 'user')).toHaveLength(
      3,
    );

    const looping = run(
      Array.from({ length: 10 }, () => calls(['get_user', { user_id: 'u1' }])),
      [say('Hi')],
    );
    expect(await looping.running).toMatchObject({
      ending: 'max-turns',
      detail: expect.stringMatching(/tools 4 times/) as string,
    });
  });

  it('ends as the simulated user’s error when it leaves before the agent spoke, or says nothing', async () => {
    const quits = run([say('Hello!')], [say(`Never mind. ${USER_STOP}`)]);
    expect(await quits.running).toMatchObject({
      ending: 'user-error',
      detail: 'The simulated user ended the conversation before the agent could say anything.',
    });
    expect(quits.agent.requests).toHaveLength(0);
    expect(quits.events.at(-1)).toMatchObject({ role: 'user' });
    const mute = run([say('Hello!')], [say('   ')]);
    expect(await mute.running).toMatchObject({
      ending: 'user-error',
      detail: 'The simulated user sent an empty message.',
    });
    // Leaving after the agent has answered is a normal ending.
    const done = run([say('Hello!')], [say('Hi'), say(`Thanks. ${USER_STOP}`)]);
    expect((await done.running).ending).toBe('user-done');
  });

  it('names the role whose provider failed', async () => {
    const userDown = run(
      [say('Hello!')],
      [new ModelError('auth', 'The provider refused the API key (401).', { status: 401 })],
    );
    expect(await userDown.running).toMatchObject({ ending: 'provider-error' });
    expect(userDown.events.at(-1)).toMatchObject({ type: 'dialogue-ended', role: 'user' });
  });

  it('calls provider failures errors and the agent’s broken output its failure, never a policy’s', async () => {
    const down = run(
      [new ModelError('server', 'The provider failed (500).', { status: 500 })],
      [say('Hi')],
    );
    expect(await down.running).toMatchObject({
      ending: 'provider-error',
      detail: 'The provider failed (500).',
    });

    const bad = { ...calls(['get_user', { user_id: 'u1' }]) };
    const broken: ChatResponse = {
      ...bad,
      message: { ...bad.message, toolCalls: [{ id: 'b', name: 'get_user', arguments: '{oops' }] },
    };
    const garbled = run([broken, broken], [say('Hi')]);
    // The agent under test answering badly twice is its own failure, and the ending says whose.
    expect((await garbled.running).ending).toBe('agent-error');
    expect(garbled.events.at(-1)).toMatchObject({ type: 'dialogue-ended', role: 'agent' });

    // A fault in an adapter (not a ModelError) ends this dialogue, not the run.
    const faulty = run([], [say('Hi')], {
      deps: {
        agent: {
          engine: { chat: () => Promise.reject(new TypeError('x is undefined')) },
          model: 'a',
        },
      },
    });
    expect(await faulty.running).toMatchObject({
      ending: 'provider-error',
      detail: 'The engine failed unexpectedly: x is undefined',
    });
  });

  it('ends on the time limit, on cancel, and on a spent budget, with the call really stopped', async () => {
    const slow = run(['hang'], [say('Hi')]);
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    slow.expire();
    expect((await slow.running).ending).toBe('time-limit');

    const controller = new AbortController();
    const stopped = run(['hang'], [say('Hi')], { deps: { signal: controller.signal } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    expect((await stopped.running).ending).toBe('cancelled');

    const broke = run([say('x')], [say('Hi')], { deps: { overBudget: () => true } });
    expect((await broke.running).ending).toBe('budget');
  });

  it('writes identical logs for identical scripted answers', async () => {
    const script = () =>
      [
        [
          calls(['get_user', { user_id: 'u1' }]),
          calls(['refund_order', { order_id: 'o1' }]),
          say('Done.'),
        ],
        [say('Refund o1, I am u1.'), say(`Bye ${USER_STOP}`)],
      ] as const;
    const first = run([...script()[0]], [...script()[1]]);
    await first.running;
    const second = run([...script()[0]], [...script()[1]]);
    await second.running;
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });

  it('treats invalid scenario rows as an error of the scenario', async () => {
    const scenario = { ...SCENARIO, rows: { orders: [{ id: 'o9', status: 'lost' }] } };
    const { running, agent } = run([], [], { scenario });
    const result = await running;
    expect(result.ending).toBe('scenario-error');
    expect(result.detail).toMatch(/rows are invalid/);
    expect(agent.requests).toHaveLength(0);
  });
});
