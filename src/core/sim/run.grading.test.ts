import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import { modelReply } from '../../test/scriptedModels.ts';
import { REFUND_PLAN, goalUser, simulateRefunds } from '../../test/refundDesk.ts';
import { testScenario } from '../testing/scenarios.ts';
import type { SimEvent, SimScenario } from './events.ts';
import { DEFAULT_PERSONA } from './prompts.ts';
import { dialogueMarkdown } from './dialogueExport.ts';
import { readLog } from './logFormat.ts';
import { replayOf } from './replay.ts';
import { reportOf } from './report.ts';

/** A scenario as tau2-bench writes its tasks: no policies, no persona, actions with arguments. */
const TAU_STYLE: SimScenario = testScenario({
  id: 'tau',
  policies: [],
  persona: '',
  goal: 'Refund order o1.',
  knows: ['user id u1'],
  expected: {
    requiredActions: ['refund_order', 'refund_order'],
    actionArgs: {
      'expected.required_actions[0]': { args: { order_id: 'o1' } },
      'expected.required_actions[1]': {
        args: { order_id: 'o2', amount: 5 },
        compare: ['order_id'],
      },
    },
    assertions: [{ text: 'The agent refunds order o1.' }],
  },
});

const listening = (engine: ChatEngine, into: ChatRequest[]): ChatEngine => ({
  chat: (request, options) => {
    into.push(request);
    return engine.chat(request, options);
  },
});

// Asked about an assertion it finds it met; asked about a policy in play, kept.
const assertionJudge: ChatEngine = {
  chat: (request) =>
    Promise.resolve(
      modelReply(
        JSON.stringify(
          request.responseSchema?.name === 'policy_verdict'
            ? { violated: false, turn: null, reason: 'Kept.', evidence: '' }
            : { met: true, turn: null, reason: 'It refunded.', evidence: '' },
        ),
      ),
    ),
};

async function run(judge?: ChatEngine) {
  const users: ChatRequest[] = [];
  const { events } = await simulateRefunds({
    ...REFUND_PLAN,
    scenarios: [{ scenario: TAU_STYLE, source: 'hand-written' }],
    trials: 1,
    user: { engine: listening(goalUser, users), model: 'user-model' },
    ...(judge && { judge: { engine: judge, model: 'judge-model' } }),
  });
  return { events, users, report: reportOf(events, new Map()) };
}

const ofType = <T extends SimEvent['type']>(events: readonly SimEvent[], type: T) =>
  events.filter((e): e is Extract<SimEvent, { type: T }> => e.type === type);

describe('a tau2-style scenario in a run', () => {
  it('runs with the default persona, matches actions by their arguments, and asks the judge about its assertions', async () => {
    const { events, users, report } = await run(assertionJudge);
    expect(users[0]?.messages[0]?.content).toContain(`Who you are: ${DEFAULT_PERSONA}`);
    const [checks] = ofType(events, 'checks');
    const actions = checks?.findings.filter((f) => f.id.startsWith('expected.required_actions'));
    expect(actions?.map((f) => [f.id, f.policy, f.passed])).toEqual([
      ['expected.required_actions[0]', undefined, true],
      ['expected.required_actions[1]', undefined, false],
    ]);
    expect(actions?.[1]?.detail).toContain('gave order_id "o1" where "o2" was expected');
    expect(ofType(events, 'run-started')[0]?.prompts.map((p) => p.id)).toContain('assertion-judge');
    expect(ofType(events, 'assertion')).toMatchObject([
      { id: 'expected.assertions[0]', text: 'The agent refunds order o1.', met: true },
    ]);
    // One call for the assertion, one per policy in play (refund_order's, called), none failed.
    const policies = ofType(events, 'judge').map((j) => j.policy);
    expect(policies.length).toBeGreaterThan(0);
    expect(ofType(events, 'usage').filter((u) => u.role === 'judge')).toHaveLength(
      1 + policies.length,
    );
    expect(ofType(events, 'judge-failed')).toEqual([]);
    const [d] = report.dialogues;
    expect(d?.verdict).toBe('fail');
    expect(report.unattributed.map((u) => u.id)).toEqual(['expected.required_actions[1]']);
    expect(d?.assertions.map((a) => a.opinion)).toEqual(['met']);
  });

  it('without a judge model, logs no opinion and the report lists the assertion as not judged', async () => {
    const { events, report } = await run();
    expect(ofType(events, 'assertion')).toEqual([]);
    expect(ofType(events, 'run-started')[0]?.prompts.map((p) => p.id)).not.toContain(
      'assertion-judge',
    );
    expect(report.dialogues[0]?.assertions.map((a) => [a.opinion, a.reason])).toEqual([
      ['not-judged', 'Not judged: the run had no judge model.'],
    ]);
  });

  it('pins each assertion in Replay: the judge’s opinion, or not judged, at the ending when no turn is named', async () => {
    for (const [judge, opinion] of [
      [assertionJudge, 'met'],
      [undefined, 'not-judged'],
    ] as const) {
      const { events } = await run(judge);
      const replay = replayOf(events, 'tau#1');
      const ending = replay.steps.findIndex((step) => step.kind === 'ending');
      expect(replay.assertions).toMatchObject([
        { step: ending, item: { id: 'expected.assertions[0]', opinion } },
      ]);
      expect(replay.steps[ending]?.pinned).toBe(true);
    }
  });

  it('saves a log that reads back whole, and a damaged assertion event is refused in words', async () => {
    const { events } = await run(assertionJudge);
    expect(readLog(JSON.parse(JSON.stringify(events)))).toEqual({
      ok: true,
      events,
      savedVersion: events[0]?.type === 'run-started' ? events[0].version : 0,
    });
    const damaged = events.map((e) => (e.type === 'assertion' ? { ...e, met: 'yes' } : e));
    const read = readLog(JSON.parse(JSON.stringify(damaged)));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toContain('"met" must be true or false');
    const badArgs = events.map((e) =>
      e.type === 'scenario'
        ? {
            ...e,
            scenario: {
              ...e.scenario,
              expected: { ...e.scenario.expected, actionArgs: { x: { args: 'o1' } } },
            },
          }
        : e,
    );
    const refused = readLog(JSON.parse(JSON.stringify(badArgs)));
    expect(!refused.ok && refused.error).toContain(
      '"scenario.expected.actionArgs.x.args" must be a mapping',
    );
  });

  it('exports the assertions with the dialogue, labelled as the judge’s opinion or not judged', async () => {
    const judged = dialogueMarkdown((await run(assertionJudge)).events, 'tau#1');
    expect(judged).toContain('## The judge model’s opinion of the assertions');
    expect(judged).toContain('**“The agent refunds order o1.”: holds**. It refunded.');
    expect(judged).toContain(
      `- **Persona:** ${DEFAULT_PERSONA} (the default: the scenario gives none)`,
    );
    const alone = dialogueMarkdown((await run()).events, 'tau#1');
    expect(alone).toContain(
      '**“The agent refunds order o1.”: not judged**. Not judged: the run had no judge model.',
    );
  });
});
