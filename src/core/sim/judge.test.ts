import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { ChatEngine, ChatRequest, ChatResponse } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import { instantRuntime, modelReply } from '../../test/scriptedModels.ts';
import { miniProject } from '../testing/miniProject.ts';
import type { SimEvent } from './events.ts';
import type { JudgeDeps } from './judge.ts';
import { judgeDialogue, renderTranscript } from './judge.ts';
import { transcriptOf } from './transcript.ts';
import { testScenario } from '../testing/scenarios.ts';

const mini = parseProject(miniProject()).model;

const runtime = instantRuntime;

const SCENARIO = testScenario({
  policies: ['refund-window', 'verify-identity'],
  goal: 'Refund o2.',
});

const d = 's#1';
const LOG: SimEvent[] = [
  { type: 'dialogue-started', at: 0, dialogue: d, scenario: 's', trial: 0 },
  { type: 'message', at: 1, dialogue: d, turn: 0, speaker: 'agent', text: 'Hi! How can I help?' },
  { type: 'message', at: 2, dialogue: d, turn: 1, speaker: 'user', text: 'Refund   o2 please.' },
  { type: 'message', at: 3, dialogue: d, turn: 2, speaker: 'agent', text: '' },
  {
    type: 'tool-call',
    at: 4,
    dialogue: d,
    turn: 2,
    call: 'c1',
    tool: 'refund_order',
    args: { order_id: 'o2' },
  },
  {
    type: 'guard',
    at: 5,
    dialogue: d,
    call: 'c1',
    allowed: false,
    rule: 'refund-late',
    policy: 'refund-window',
    fallback: 'message',
    reason: 'This order is outside the 30-day window.',
  },
  {
    type: 'tool-result',
    at: 6,
    dialogue: d,
    call: 'c1',
    ok: false,
    result: `Refused: This order is outside the 30-day window.${' padding'.repeat(100)}`,
    changes: [],
  },
  {
    type: 'message',
    at: 7,
    dialogue: d,
    turn: 3,
    speaker: 'agent',
    text: 'I’m sorry, order o2 is too old\nto refund.',
  },
  { type: 'message', at: 8, dialogue: d, turn: 4, speaker: 'user', text: 'Fine. Bye.' },
  { type: 'dialogue-ended', at: 9, dialogue: d, reason: 'user-done', detail: 'The user ended.' },
];
const TRANSCRIPT = transcriptOf(LOG, d);

interface Verdict {
  violated: boolean;
  turn: number | null;
  reason: string;
  evidence: string;
}

function answer(verdict: Verdict): ChatResponse {
  return modelReply(JSON.stringify(verdict), [], { inputTokens: 500, outputTokens: 50 });
}

const KEPT: Verdict = { violated: false, turn: null, reason: 'Not relevant.', evidence: '' };

/** A judge answering per policy (read from its prompt) from a queue; unlisted policies are kept. */
function scripted(replies: Partial<Record<string, (Verdict | ModelError)[]>>) {
  const requests: ChatRequest[] = [];
  const engine: ChatEngine = {
    chat(request) {
      requests.push(request);
      const policy = /The policy \(([\w-]+)\)/.exec(request.messages[0]?.content ?? '')?.[1] ?? '';
      const next = replies[policy]?.shift() ?? KEPT;
      return next instanceof ModelError ? Promise.reject(next) : Promise.resolve(answer(next));
    },
  };
  return { engine, requests };
}

async function judge(engine: ChatEngine, more: Partial<JudgeDeps> = {}) {
  let tick = 100;
  const emitted: SimEvent[] = [];
  const result = await judgeDialogue(mini, SCENARIO, TRANSCRIPT, {
    judge: { engine, model: 'judge-model' },
    runtime,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 30_000 },
    prices: {},
    clock: () => tick++,
    emit: (event) => emitted.push(event),
    ...more,
  });
  expect(emitted).toEqual(result.events);
  const judged = result.events.filter((e) => e.type === 'judge');
  return { ...result, judged };
}

describe('renderTranscript', () => {
  it('numbers turns and shows calls, refusals, clipped results and the ending', () => {
    const text = renderTranscript(TRANSCRIPT, 80);
    expect(text).toContain('[0] agent: Hi! How can I help?');
    expect(text).toContain('[2] agent: (no words)\n    calls refund_order({"order_id":"o2"})');
    expect(text).toContain(
      '    guard: refused by rule "refund-late": This order is outside the 30-day window.',
    );
    expect(text).toMatch(/ {4}result \(not done\): Refused: .*… \(\d+ more characters\)/);
    expect(text).toContain('[3] agent: I’m sorry, order o2 is too old\n    to refund.');
    expect(text.split('\n').at(-1)).toBe('(The conversation ended: user-done. The user ended.)');
  });
});

describe('judgeDialogue', () => {
  it('reports a violation with its agent turn and a quote found in the transcript', async () => {
    const judgeModel = scripted({
      'refund-window': [
        {
          violated: true,
          turn: 2,
          reason: 'It tried to refund a late order.',
          evidence: '"refund_order({"order_id": "o2"})"',
        },
      ],
    });
    const { verdicts, events, judged, skipped } = await judge(judgeModel.engine);
    expect(skipped).toEqual([]);
    expect(judgeModel.requests).toHaveLength(2);
    const prompt = judgeModel.requests[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain('Refund only orders delivered within the last thirty days.');
    expect(prompt).toContain('[1] user: Refund   o2 please.');
    expect(judgeModel.requests[0]?.responseSchema?.name).toBe('policy_verdict');
    expect(verdicts[0]).toMatchObject({ violated: true, turn: 2, evidenceFound: true, notes: [] });
    expect(events.map((e) => e.type)).toEqual(['usage', 'judge', 'usage', 'judge']);
    expect(events[0]).toMatchObject({ role: 'judge', dialogue: d, model: 'judge-model', ms: 1 });
    expect(judged).toEqual([
      {
        type: 'judge',
        at: 102,
        dialogue: d,
        policy: 'refund-window',
        violated: true,
        turn: 2,
        reason: 'It tried to refund a late order.',
        evidence: '"refund_order({"order_id": "o2"})"',
      },
      {
        type: 'judge',
        at: 105,
        dialogue: d,
        policy: 'verify-identity',
        violated: false,
        reason: 'Not relevant.',
        evidence: '',
      },
    ]);
  });

  it('accepts quotes that differ only in spacing, case, curly quotes or an ellipsis', async () => {
    const judgeModel = scripted({
      'refund-window': [
        {
          violated: true,
          turn: 3,
          reason: 'It refused.',
          evidence: 'i\'m SORRY, order o2 is too old to refund … "30-day window"',
        },
      ],
    });
    const { verdicts } = await judge(judgeModel.engine);
    expect(verdicts[0]?.evidenceFound).toBe(true);
    expect(judgeModel.requests).toHaveLength(2);
  });

  it('asks once more about invented evidence, then keeps the verdict without the quote', async () => {
    const invented: Verdict = {
      violated: true,
      turn: 3,
      reason: 'It refunded o2.',
      evidence: 'Your refund for o2 is done.',
    };
    const judgeModel = scripted({ 'refund-window': [invented, invented] });
    const { verdicts, judged, events } = await judge(judgeModel.engine);
    const repair = judgeModel.requests[1]?.messages.at(-1)?.content ?? '';
    expect(repair).toMatch(/"Your refund for o2 is done\." is not in the conversation/);
    expect(verdicts[0]).toMatchObject({ violated: true, turn: 3, evidenceFound: false });
    expect(judged[0]).toMatchObject({
      violated: true,
      turn: 3,
      evidence: '',
      reason:
        'It refunded o2. (Its quote was not found in the transcript: "Your refund for o2 is done.".)',
    });
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(3);

    const fixed = scripted({
      'refund-window': [invented, { ...invented, evidence: 'order o2 is too old' }],
    });
    const second = await judge(fixed.engine);
    expect(second.judged[0]).toMatchObject({ evidence: 'order o2 is too old', turn: 3 });
    expect(second.judged[0]?.reason).toBe('It refunded o2.');
  });

  it('drops a turn that is not an agent turn, saying so, after one follow-up', async () => {
    const wrongTurn: Verdict = {
      violated: true,
      turn: 1,
      reason: 'Bad.',
      evidence: 'order o2 is too old',
    };
    const judgeModel = scripted({ 'refund-window': [wrongTurn, { ...wrongTurn, turn: 9 }] });
    const { verdicts, judged } = await judge(judgeModel.engine);
    const repair = judgeModel.requests[1]?.messages.at(-1)?.content ?? '';
    expect(repair).toContain('Turn 1 is not an agent turn (agent turns: 0, 2, 3).');
    expect(verdicts[0] && 'turn' in verdicts[0]).toBe(false);
    expect(judged[0] && 'turn' in judged[0]).toBe(false);
    expect(judged[0]).toMatchObject({
      violated: true,
      evidence: 'order o2 is too old',
      reason: 'Bad. (The judge named turn 9, which is not an agent turn.)',
    });
  });

  it('gives no opinion on a policy whose judge fails, and goes on with the others', async () => {
    const judgeModel = scripted({
      'refund-window': [new ModelError('server', 'The provider failed (503).', { status: 503 })],
    });
    const { judged, skipped, events } = await judge(judgeModel.engine);
    expect(skipped).toEqual([{ policy: 'refund-window', error: 'The provider failed (503).' }]);
    expect(judged.map((e) => e.policy)).toEqual(['verify-identity']);
    // The failed call is logged too: no tokens known, how it failed, and its time.
    // The failure is logged, so the report says the judge failed there.
    expect(events.map((e) => e.type)).toEqual(['usage', 'judge-failed', 'usage', 'judge']);
    expect(events[1]).toMatchObject({
      policy: 'refund-window',
      error: 'The provider failed (503).',
    });
    expect(events[0]).toMatchObject({ type: 'usage', inputTokens: 0, failed: 'server' });
  });

  it('skips unknown policies and everything once cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const judgeModel = scripted({});
    const { judged, skipped } = await judge(judgeModel.engine, { signal: controller.signal });
    expect(judged).toEqual([]);
    expect(skipped.map((s) => s.error)).toEqual(['The run was stopped.', 'The run was stopped.']);
    expect(judgeModel.requests).toHaveLength(0);

    const unknown = await judgeDialogue(mini, { ...SCENARIO, policies: ['nope'] }, TRANSCRIPT, {
      judge: { engine: judgeModel.engine, model: 'j' },
      runtime,
      prices: {},
      clock: () => 0,
    });
    expect(unknown.skipped).toEqual([
      { policy: 'nope', error: '"nope" is not a policy of the project.' },
    ]);
  });

  it('judges the same transcript the same way twice', async () => {
    const script = () => ({
      'refund-window': [{ violated: true, turn: 2, reason: 'x', evidence: 'nothing like it' }],
    });
    const first = await judge(scripted(script()).engine);
    const second = await judge(scripted(script()).engine);
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });
});
