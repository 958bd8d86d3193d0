import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { ChatEngine, ChatResponse } from '../models/chat.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { testScenario } from '../testing/scenarios.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import type { SimEvent } from './events.ts';
import { guardWhatIf } from './guardWhatIf.ts';
import { USER_STOP } from './prompts.ts';
import { replayOf } from './replay.ts';
import { runSimulation } from './run.ts';

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();

/**
 * The refund desk with rules that read everything a what-if has to rebuild: the database as the
 * dialogue changed it (a refunded order), the history with its decisions (a refusal before) and
 * without the call itself (a second look-up), the run's `now`, and the scenario's own rows (o3).
 */
const model = parseProject(
  miniProject({
    'rules.yaml': MINI_FILES['rules.yaml'].replace(
      'checks:',
      `      - id: refund-once
        policy: refund-window
        decision: forbid
        when: db.orders.exists(o, o.id == args.order_id && o.status == "refunded")
      - id: no-o3-after-refusal
        policy: refund-window
        decision: forbid
        when: args.order_id == "o3" && history.exists(c, c.tool == "refund_order" && !c.allowed)
  get_user:
    rules:
      - id: no-u9-lately
        policy: verify-identity
        decision: forbid
        when: args.user_id == "u9" && now > timestamp("2026-11-01T00:00:00Z")
      - id: one-lookup-each
        policy: verify-identity
        decision: forbid
        when: history.exists(c, c.tool == "get_user" && c.args.user_id == args.user_id)
checks:`,
    ),
  }),
).model;

/** An engine that gives `answers` in order, then `last` for ever. */
function scripted(answers: readonly ChatResponse[], last: ChatResponse): ChatEngine {
  let asked = 0;
  return { chat: () => Promise.resolve(answers[asked++] ?? last) };
}

const call = fc.oneof(
  fc.constantFrom('u1', 'u9').map((user_id) => ({ name: 'get_user', args: { user_id } })),
  fc
    .constantFrom('o1', 'o2', 'o3')
    .map((order_id) => ({ name: 'refund_order', args: { order_id } })),
);
/** An agent's answer: words, or one to three tool calls (ids t0, t1, ...: repeated turn to turn). */
const agentAnswer = fc.oneof(
  fc.constant(modelReply('Let me see.')),
  fc.array(call, { minLength: 1, maxLength: 3 }).map((calls) => modelReply('', calls)),
);

async function simulate(agent: readonly ChatResponse[]): Promise<SimEvent[]> {
  const events: SimEvent[] = [];
  let tick = 0;
  const scenario = testScenario({
    rows: { orders: [{ id: 'o3', user_id: 'u1', status: 'delivered', days_since_delivery: 2 }] },
  });
  await runSimulation(
    model,
    {
      seed: 1,
      projectHash: 'h',
      scenarios: [{ scenario, source: 'hand-written' }],
      trials: 1,
      concurrency: 1,
      limits: { maxTurns: 4, timeLimitMs: 60_000, maxToolRounds: 4 },
      agent: { engine: scripted(agent, modelReply('Done.')), model: 'agent-model' },
      user: {
        engine: scripted([modelReply('Refund please, I am u1.')], modelReply(`Bye. ${USER_STOP}`)),
        model: 'user-model',
      },
      prices: {},
      now: '2026-11-21T12:00:00Z',
    },
    { runtime, clock: () => tick++, emit: (e) => events.push(e) },
  );
  return events;
}

describe('the what-if of a run’s calls under the rules the run had', () => {
  it('decides every call exactly as the log did, by the same rule', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(agentAnswer, { minLength: 1, maxLength: 8 }), async (answers) => {
        const events = await simulate(answers);
        const replay = replayOf(events, 's#1');
        const answer = guardWhatIf(model, replay);
        if (!answer.ok) throw new Error(answer.problem);
        const logged = replay.steps.flatMap((s) =>
          s.call?.guard ? [{ step: s.index, call: s.call.call, ...s.call.guard }] : [],
        );
        expect(
          [...answer.calls.values()].map((w) => ({
            step: w.step,
            call: w.call,
            allowed: w.allowed,
            rule: w.rule,
            reason: w.reason,
            differs: w.differs,
          })),
        ).toEqual(
          logged.map((g) => ({
            step: g.step,
            call: g.call,
            allowed: g.allowed,
            rule: g.rule,
            reason: g.reason,
            differs: false,
          })),
        );
      }),
      { numRuns: 80 },
    );
  });
});
