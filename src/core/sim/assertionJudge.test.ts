import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import { instantRuntime, modelReply } from '../../test/scriptedModels.ts';
import { testScenario } from '../testing/scenarios.ts';
import { A, U, dialogue } from '../testing/dialogues.ts';
import type { AssertionJudgeDeps } from './assertionJudge.ts';
import { judgeAssertions } from './assertionJudge.ts';
import { assertionOpinions } from './assertionOpinions.ts';
import type { SimEvent } from './events.ts';
import { ASSERTION_JUDGE_PROMPT } from './prompts.ts';

const TRANSCRIPT = dialogue([
  U('Cancel my order o7, it was delivered yesterday.'),
  A('I am sorry, a delivered order cannot be cancelled. I can start a return instead.'),
  U('Fine, bye.'),
]);

const SCENARIO = testScenario({
  policies: [],
  expected: {
    assertions: [
      { text: 'The agent refuses to cancel the delivered order.' },
      { text: 'The agent offers a return.', policy: 'returns' },
    ],
  },
});

interface Answer {
  met: boolean;
  turn: number | null;
  reason: string;
  evidence: string;
}

/** A judge answering from a queue per statement (read from its prompt). */
function scripted(replies: Record<string, (Answer | ModelError)[]>) {
  const requests: ChatRequest[] = [];
  const engine: ChatEngine = {
    chat(request) {
      requests.push(request);
      const statement = /The statement: (.*)/.exec(request.messages[0]?.content ?? '')?.[1] ?? '';
      const next = replies[statement]?.shift() ?? {
        met: true,
        turn: null,
        reason: 'Yes.',
        evidence: '',
      };
      return next instanceof ModelError
        ? Promise.reject(next)
        : Promise.resolve(
            modelReply(JSON.stringify(next), [], { inputTokens: 300, outputTokens: 40 }),
          );
    },
  };
  return { engine, requests };
}

async function judge(engine: ChatEngine, more: Partial<AssertionJudgeDeps> = {}) {
  let tick = 100;
  const emitted: SimEvent[] = [];
  const result = await judgeAssertions(SCENARIO, TRANSCRIPT, {
    judge: { engine, model: 'judge-model' },
    runtime: instantRuntime,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 30_000 },
    prices: {},
    clock: () => tick++,
    emit: (event) => emitted.push(event),
    ...more,
  });
  expect(emitted).toEqual(result.events);
  return result;
}

describe('judgeAssertions', () => {
  it('asks the judge once per assertion and logs each answer as an opinion, with its usage', async () => {
    const judgeModel = scripted({
      'The agent refuses to cancel the delivered order.': [
        {
          met: true,
          turn: 1,
          reason: 'It said it cannot cancel.',
          evidence: 'a delivered order cannot be cancelled',
        },
      ],
      'The agent offers a return.': [{ met: false, turn: null, reason: 'No.', evidence: '' }],
    });
    const { events, skipped } = await judge(judgeModel.engine);
    expect(skipped).toEqual([]);
    expect(judgeModel.requests).toHaveLength(2);
    expect(judgeModel.requests[0]?.responseSchema?.name).toBe('assertion_verdict');
    expect(judgeModel.requests[0]?.messages[0]?.content).toContain('[1] agent: I am sorry');
    expect(events.map((e) => e.type)).toEqual(['usage', 'assertion', 'usage', 'assertion']);
    expect(events[0]).toMatchObject({ role: 'judge', model: 'judge-model', dialogue: 'd1' });
    expect(events.filter((e) => e.type === 'assertion')).toEqual([
      {
        type: 'assertion',
        at: 102,
        dialogue: 'd1',
        id: 'expected.assertions[0]',
        text: 'The agent refuses to cancel the delivered order.',
        met: true,
        turn: 1,
        reason: 'It said it cannot cancel.',
        evidence: 'a delivered order cannot be cancelled',
      },
      {
        type: 'assertion',
        at: 105,
        dialogue: 'd1',
        id: 'expected.assertions[1]',
        text: 'The agent offers a return.',
        policy: 'returns',
        met: false,
        reason: 'No.',
        evidence: '',
      },
    ]);
  });

  it('asks again about an invented quote or a wrong turn, then keeps the opinion without them', async () => {
    const invented: Answer = { met: true, turn: 0, reason: 'It refused.', evidence: 'No way.' };
    const judgeModel = scripted({
      'The agent refuses to cancel the delivered order.': [invented, invented],
    });
    const { events } = await judge(judgeModel.engine);
    expect(judgeModel.requests[1]?.messages.at(-1)?.content).toContain(
      '"No way." is not in the conversation',
    );
    const [first] = events.filter((e) => e.type === 'assertion');
    expect(first).toMatchObject({ met: true, evidence: '' });
    expect(first).not.toHaveProperty('turn');
    expect(first?.type === 'assertion' && first.reason).toBe(
      'It refused. (The judge named turn 0, which is not an agent turn.) (Its quote was not found in the transcript: "No way.".)',
    );
  });

  it('leaves an assertion without an opinion when the judge fails, logging the failed call', async () => {
    const judgeModel = scripted({
      'The agent offers a return.': [new ModelError('server', 'The provider failed.')],
    });
    const { events, skipped } = await judge(judgeModel.engine);
    expect(skipped).toEqual([{ id: 'expected.assertions[1]', error: 'The provider failed.' }]);
    expect(events.map((e) => e.type)).toEqual(['usage', 'assertion', 'usage']);
    expect(events[2]).toMatchObject({ type: 'usage', failed: 'server' });
  });

  it('asks nothing once the run is over budget, and uses the project’s own template', async () => {
    const judgeModel = scripted({});
    const { events, skipped } = await judge(judgeModel.engine, { overBudget: () => true });
    expect(judgeModel.requests).toHaveLength(0);
    expect(events).toEqual([]);
    expect(skipped.map((s) => s.error)).toEqual([
      'The run’s budget was spent.',
      'The run’s budget was spent.',
    ]);
    const own = scripted({});
    await judge(own.engine, {
      template: { ...ASSERTION_JUDGE_PROMPT, text: 'Ours: {{assertion}}', source: 'project' },
    });
    expect(own.requests[0]?.messages[0]?.content).toBe(
      'Ours: The agent refuses to cancel the delivered order.',
    );
  });
});

describe('assertionOpinions', () => {
  const texts = fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 5 });
  const answers = fc.array(
    fc.record({ index: fc.nat({ max: 6 }), met: fc.boolean(), reason: fc.string() }),
    { maxLength: 8 },
  );
  const context = fc.record({ judge: fc.boolean(), ended: fc.boolean(), error: fc.boolean() });

  it('never counts an assertion as met without the judge’s opinion that it is', () => {
    fc.assert(
      fc.property(texts, answers, context, (statements, given, ctx) => {
        const scenario = testScenario({
          expected: { assertions: statements.map((text) => ({ text })) },
        });
        const events = given.map(
          ({ index, met, reason }): Extract<SimEvent, { type: 'assertion' }> => ({
            type: 'assertion',
            at: 0,
            dialogue: 'd1',
            id: `expected.assertions[${index}]`,
            text: statements[index] ?? 'gone',
            met,
            reason,
            evidence: '',
          }),
        );
        const opinions = assertionOpinions(scenario, events, ctx);
        expect(opinions.map((o) => o.text)).toEqual(statements);
        opinions.forEach((o, i) => {
          const last = events.filter((e) => e.id === `expected.assertions[${i}]`).at(-1);
          expect(o.opinion).toBe(last ? (last.met ? 'met' : 'not-met') : 'not-judged');
          if (!last) expect(o.reason).toMatch(/^Not judged/);
        });
        // An opinion of other words is no opinion of these.
        const reworded = events.map((e) => ({ ...e, text: `${e.text} (edited)` }));
        const edited = assertionOpinions(scenario, reworded, ctx);
        expect(edited.every((o) => o.opinion === 'not-judged')).toBe(true);
        // A run without a judge has no assertion events, so none is ever met.
        const alone = assertionOpinions(scenario, [], { ...ctx, judge: false });
        expect(alone.every((o) => o.opinion === 'not-judged')).toBe(true);
        if (statements.length > 0)
          expect(alone[0]?.reason).toBe('Not judged: the run had no judge model.');
      }),
    );
  });
});
