import type { ChatEngine, ChatRequest, SimEvent, SimScenario } from '../core/index.ts';
import type { GenerationFailure, RunPlan } from '../core/index.ts';
import { USER_STOP, parseProject, runSimulation } from '../core/index.ts';
import { miniProject } from '../core/testing/miniProject.ts';
import { testScenario } from '../core/testing/scenarios.ts';
import { modelReply, waitingRuntime } from './scriptedModels.ts';

/*
 * A refund desk on the mini project, played by scripted models that answer from what they see
 * (so concurrent dialogues share no queue): for run tests in core and through the worker.
 */

/** The mini project's model. */
export const mini = parseProject(miniProject()).model;

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();
const reply = modelReply;

/**
 * A scripted agent that answers from what it has seen (so concurrent dialogues do not share a
 * queue): it looks the user up, refunds the order the goal names, then reports.
 */
export const refundAgent: ChatEngine = {
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
export const goalUser: ChatEngine = {
  chat(request: ChatRequest) {
    const system = request.messages[0]?.content ?? '';
    const goal = /What you want: (.*)/.exec(system)?.[1] ?? '';
    const spoken = request.messages.filter((m) => m.role === 'assistant').length;
    return Promise.resolve(
      reply(spoken === 0 ? `${goal} I am u1. Yes, go ahead.` : `Thanks. ${USER_STOP}`),
    );
  },
};

/**
 * A customer after a refund of `goal`, expecting `database` to hold at the end. Its brief gives
 * it the user id it states (else the simulated user would be making it up: suspect).
 */
export const refundScenario = (id: string, goal: string, database: string[]): SimScenario =>
  testScenario({ id, goal, knows: ['user id u1'], expected: { database } });

/** A refund the agent may make: o1 was delivered recently. */
export const FRESH_REFUND = refundScenario('fresh', 'Refund order o1.', [
  'db.orders.exists(o, o.id == "o1" && o.status == "refunded")',
]);

/** A refund past the window: the guard refuses it, so o2 stays delivered. */
export const LATE_REFUND = refundScenario('late', 'Refund order o2.', [
  'db.orders.exists(o, o.id == "o2" && o.status == "delivered")',
]);

/** Both refunds twice each, two at a time, with the scripted agent and user. */
export const REFUND_PLAN: RunPlan = {
  seed: 7,
  projectHash: 'abc',
  scenarios: [
    { scenario: FRESH_REFUND, source: 'hand-written' },
    { scenario: LATE_REFUND, source: 'generated' },
  ],
  trials: 2,
  concurrency: 2,
  agent: { engine: refundAgent, model: 'agent-model' },
  user: { engine: goalUser, model: 'user-model' },
  prices: { 'agent-model': { inputPerMillion: 1000, outputPerMillion: 1000 } },
  now: '2026-11-21T12:00:00Z',
};

export async function simulateRefunds(plan: RunPlan = REFUND_PLAN, signal?: AbortSignal) {
  const events: SimEvent[] = [];
  const failures: GenerationFailure[] = [];
  let tick = 0;
  const reason = await runSimulation(mini, plan, {
    runtime,
    clock: () => tick++,
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
export const refundJudge: ChatEngine = {
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
export const refundGenerator: ChatEngine = {
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

export const REFUND_SAMPLES = [
  { policies: ['refund-window'], level: 3 },
  { policies: ['no-such-policy'], level: 1 },
];
