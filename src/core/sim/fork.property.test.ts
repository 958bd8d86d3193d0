import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest, ChatResponse } from '../models/chat.ts';
import { mini } from '../../test/refundDesk.ts';
import type { ScriptedCall } from '../../test/scriptedModels.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import { testScenario } from '../testing/scenarios.ts';
import type { SimEvent } from './events.ts';
import { dialoguePrefix } from './fork.ts';
import { USER_STOP } from './prompts.ts';
import type { RunPlan } from './run.ts';
import { runSimulation } from './run.ts';

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();

/**
 * An engine that gives `answers` in order from the `from`-th, then `last` for ever, keeping every
 * request: the same script replayed from any point of a dialogue.
 */
function replaying(answers: readonly ChatResponse[], last: ChatResponse, from = 0) {
  const requests: ChatRequest[] = [];
  const engine: ChatEngine = {
    chat: (request) => {
      requests.push(request);
      return Promise.resolve(answers[from + requests.length - 1] ?? last);
    },
  };
  return { engine, requests };
}

const CALLS: readonly ScriptedCall[] = [
  { name: 'get_user', args: { user_id: 'u1' } },
  { name: 'get_user', args: { user_id: 'u9' } },
  // Refused before a lookup (ask_user: the customer answers between the call and its result).
  { name: 'refund_order', args: { order_id: 'o1' } },
  // Refused as late.
  { name: 'refund_order', args: { order_id: 'o2' } },
];

/** An agent's answer: words, or one or two tool calls (ids t0, t1: repeated from turn to turn). */
const agentAnswer = fc.oneof(
  fc.constantFrom('Sure.', 'Let me check.', '').map((text) => modelReply(text)),
  fc
    .tuple(
      fc.constantFrom('', 'One moment.'),
      fc.array(fc.constantFrom(...CALLS), { minLength: 1, maxLength: 2 }),
    )
    .map(([text, calls]) => modelReply(text, calls)),
);
const userAnswer = fc
  .constantFrom('Refund o1, I am u1.', 'Yes, go ahead.', 'No.', `Bye. ${USER_STOP}`)
  .map((text) => modelReply(text));

const AGENT_LAST = modelReply('Anything else?');
const USER_LAST = modelReply(`Thanks. ${USER_STOP}`);
const DIALOGUE = 's#1';
const STEPS = new Set<SimEvent['type']>(['message', 'tool-call', 'guard', 'tool-result']);

function plan(agent: ChatEngine, user: ChatEngine): RunPlan {
  return {
    seed: 1,
    projectHash: 'h',
    scenarios: [{ scenario: testScenario({ knows: ['user id u1'] }), source: 'hand-written' }],
    trials: 1,
    concurrency: 1,
    limits: { maxTurns: 4, timeLimitMs: 60_000, maxToolRounds: 3 },
    agent: { engine: agent, model: 'agent-model' },
    user: { engine: user, model: 'user-model' },
    prices: {},
    now: '2026-11-21T12:00:00Z',
  };
}

async function simulate(runPlan: RunPlan) {
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(mini, runPlan, { runtime, clock: () => tick++, emit: (e) => events.push(e) });
  return events;
}

/** The dialogue as judged: what was said and done, how it ended, the findings; not when. */
const dialogueOf = (events: readonly SimEvent[]) =>
  events.flatMap((e) => {
    if (!('dialogue' in e) || e.type === 'usage' || e.type === 'dialogue-started') return [];
    const { at: _at, ...rest } = e;
    return [rest];
  });

describe('continuing a recorded dialogue at any agent turn', () => {
  it('with the same project and models, copies the turns before and gives the same dialogue', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(agentAnswer, { minLength: 1, maxLength: 8 }),
        fc.array(userAnswer, { minLength: 1, maxLength: 5 }),
        async (agentAnswers, userAnswers) => {
          const agent = replaying(agentAnswers, AGENT_LAST);
          const user = replaying(userAnswers, USER_LAST);
          const source = await simulate(plan(agent.engine, user.engine));
          const messages = source.flatMap((e) => (e.type === 'message' ? [e] : []));
          for (const at of messages.filter((m) => m.speaker === 'agent')) {
            const point = dialoguePrefix(source, DIALOGUE, at.turn);
            if (!point.ok) throw new Error(point.problem);
            // Each model call said one message: the n-th agent message is the n-th answer.
            const earlier = messages.filter((m) => m.turn < at.turn);
            const agentFrom = earlier.filter((m) => m.speaker === 'agent').length;
            const userFrom = earlier.filter((m) => m.speaker === 'user').length;
            // The prefix is every step of the dialogue logged before the turn, in order.
            const steps = dialogueOf(source).filter((e) => STEPS.has(e.type));
            const cut = steps.findIndex((e) => e.type === 'message' && e.turn === at.turn);
            expect(dialogueOf(point.prefix.events)).toEqual(steps.slice(0, cut));

            const again = replaying(agentAnswers, AGENT_LAST, agentFrom);
            const userAgain = replaying(userAnswers, USER_LAST, userFrom);
            const continued = await simulate({
              ...plan(again.engine, userAgain.engine),
              prefix: point.prefix,
              source: { kind: 'continued', run: 'r', dialogue: DIALOGUE, turn: at.turn },
            });
            // The copied turns are the source's events before the turn, exactly and in order.
            expect(dialogueOf(continued).slice(0, point.prefix.events.length)).toEqual(
              dialogueOf(point.prefix.events),
            );
            expect(dialogueOf(continued)).toEqual(dialogueOf(source));
            // No model was asked for the copied turns; each side saw what it saw the first time.
            expect(again.requests).toEqual(agent.requests.slice(agentFrom));
            expect(userAgain.requests).toEqual(user.requests.slice(userFrom));
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
