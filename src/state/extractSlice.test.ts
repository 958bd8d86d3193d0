import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../core/index.ts';
import { ModelError, analyzeProject, parseProject } from '../core/index.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { modelReply } from '../test/scriptedModels.ts';

// A small help desk of our own: two flows that both ask for the customer's identity.
const AGENT = `# Refunds

Verify the customer's identity before anything else.
Refund only orders delivered in the last 30 days.

# Address changes

Verify the customer's identity before anything else.
Never change the address of an order that has shipped.

# Tone

Answer in a friendly voice.
`;

const POLICIES = `# The desk's policies, by hand.
policies:
  - id: greet # keep this
    text: Greet the customer by name.
    category: communication
    challenge: 1
`;

/** The answer for a section, by its heading (the prompt quotes it). */
const ANSWERS: Record<string, object[]> = {
  Refunds: [
    {
      text: "Verify the customer's identity before anything else.",
      category: 'authentication',
      challenge: 2,
      tools: [],
      quote: "Verify the customer's identity before anything else.",
    },
    {
      text: 'Refund only orders delivered in the last 30 days.',
      category: 'refunds',
      challenge: 3,
      tools: ['refund_order'],
      quote: 'Refund only orders delivered in the last 30 days.',
    },
  ],
  'Address changes': [
    {
      text: "Verify the customer's identity before anything else.",
      category: 'authentication',
      challenge: 2,
      tools: [],
      quote: "Verify the customer's identity before anything else.",
    },
    {
      text: 'Never change the address of an order that has shipped.',
      category: 'changes',
      challenge: 3,
      tools: [],
      quote: 'Never change the address of an order that has shipped.',
    },
  ],
  Tone: [
    {
      text: 'Answer in a friendly voice.',
      category: 'communication',
      challenge: 1,
      tools: [],
      quote: 'Answer in a friendly voice.',
    },
  ],
};

function titleOf(request: ChatRequest): string {
  return /The section \("(.+?)"\)/.exec(request.messages[0]?.content ?? '')?.[1] ?? '';
}

/** Answers each section from ANSWERS; `fail` names sections whose call fails (not retried). */
function extractor(fail: readonly string[] = [], onCall?: (n: number) => void) {
  const seen: ChatRequest[] = [];
  const engine: ChatEngine = {
    chat: (request, options) => {
      seen.push(request);
      onCall?.(seen.length);
      const title = titleOf(request);
      if (options?.signal?.aborted)
        return Promise.reject(new ModelError('aborted', 'The call was stopped.'));
      if (fail.includes(title))
        return Promise.reject(new ModelError('bad-request', 'The server refused the request.'));
      return Promise.resolve(
        modelReply(JSON.stringify({ policies: ANSWERS[title] ?? [] }), [], {
          inputTokens: 300,
          outputTokens: 60,
        }),
      );
    },
  };
  return { engine, seen };
}

async function ready(engine: ChatEngine, generator = true) {
  const { store } = storeWithEngine(engine);
  const id = await withEndpointModels(store);
  if (generator) store.getState().setRoleModel('generator', { engine: id, model: 'm' });
  store.getState().setFileText('agent.md', AGENT);
  store.getState().setFileText('policies.yaml', POLICIES);
  const { project } = store.getState();
  store.getState().setAnalysis(analyzeProject(project), project.files);
  return store;
}

describe('the extract slice', () => {
  it('estimates, asks once per section, and adds the chosen proposals as one undo step', async () => {
    const { engine, seen } = extractor();
    const store = await ready(engine);
    await store.getState().planExtraction();
    const planned = store.getState().extractJob;
    expect(planned).toMatchObject({ status: 'planned', sections: 3, flows: 3 });
    expect(planned?.status === 'planned' && planned.estimate.cost).toBeGreaterThan(0);
    expect(planned?.status === 'planned' && planned.estimate).toMatchObject({
      calls: 3,
      maxCalls: 6,
      model: 'm',
      free: false,
    });
    expect(seen).toHaveLength(0);

    await store.getState().extractWithModel();
    expect(seen).toHaveLength(3);
    const job = store.getState().extractJob;
    if (job?.status !== 'done') throw new Error(`not done: ${job?.status}`);
    expect(job.problems).toEqual([]);
    expect(job.spent).toMatchObject({ calls: 3, failed: 0, inputTokens: 900, outputTokens: 180 });
    // The rule both flows state is one proposal naming both.
    const ids = job.proposals.map((p) => p.candidate.id);
    expect(ids).toHaveLength(4);
    const verify = job.proposals.find((p) => p.candidate.text.startsWith('Verify'));
    expect(verify?.candidate.flows).toEqual(['Refunds', 'Address changes']);
    expect(store.getState().assistLog.map((e) => e.action)).toEqual([
      'extract',
      'extract',
      'extract',
    ]);

    const tone = job.proposals.find((p) => p.candidate.text.startsWith('Answer'))?.candidate.id;
    const chosen = ids.filter((id) => id !== tone);
    expect(store.getState().acceptExtraction(chosen)).toBe(true);
    const text = store.getState().project.files['policies.yaml'];
    expect(text.startsWith(POLICIES)).toBe(true); // comments and layout kept
    const written = parseProject(store.getState().project).model.policies;
    expect(written.map((p) => p.id)).toEqual(['greet', ...chosen]);
    expect(written.find((p) => p.text.startsWith('Verify'))?.flows).toEqual([
      'Refunds',
      'Address changes',
    ]);
    expect(written.find((p) => p.text.startsWith('Refund'))).toMatchObject({
      tools: ['refund_order'],
      flows: ['Refunds'],
      source: { line: 4 },
    });
    expect(store.getState().extractJob).toBeNull();

    expect(store.getState().undo('policies.yaml')).toBe(true);
    expect(store.getState().project.files['policies.yaml']).toBe(POLICIES);
  });

  it('keeps what was answered when stopped, and asks no more', async () => {
    let stop = () => {};
    const { engine, seen } = extractor([], (n) => {
      if (n === 2) stop();
    });
    const store = await ready(engine);
    stop = () => {
      store.getState().stopExtraction();
    };
    await store.getState().planExtraction();
    await store.getState().extractWithModel();
    expect(seen).toHaveLength(2);
    const job = store.getState().extractJob;
    if (job?.status !== 'done') throw new Error('not done');
    expect(job.stopped).toBe(true);
    // The call Stop cut is no failure of the model; the section after it was never sent.
    expect(job.problems).toEqual([]);
    expect(job.proposals.map((p) => p.candidate.text)).toEqual([
      "Verify the customer's identity before anything else.",
      'Refund only orders delivered in the last 30 days.',
    ]);
  });

  it('lists a failed section as a problem, logs its usage, and still asks the rest', async () => {
    const { engine, seen } = extractor(['Address changes']);
    const store = await ready(engine);
    await store.getState().planExtraction();
    await store.getState().extractWithModel();
    expect(seen).toHaveLength(3);
    const job = store.getState().extractJob;
    if (job?.status !== 'done') throw new Error('not done');
    expect(job.problems).toEqual([
      'Section “Address changes” (line 6): the model call failed (The server refused the request.).',
    ]);
    expect(job.spent).toMatchObject({ calls: 3, failed: 1 });
    const log = store.getState().assistLog;
    expect(log).toHaveLength(3);
    expect(log.filter((e) => e.failed !== undefined)).toHaveLength(1);
    expect(job.proposals).toHaveLength(3);
  });

  it('writes no flows for a prompt with a single one', async () => {
    const { engine } = extractor();
    const store = await ready(engine);
    store
      .getState()
      .setFileText('agent.md', '# Refunds\n\nRefund only orders delivered in the last 30 days.\n');
    await store.getState().planExtraction();
    await store.getState().extractWithModel();
    const job = store.getState().extractJob;
    if (job?.status !== 'done') throw new Error('not done');
    store.getState().acceptExtraction(job.proposals.map((p) => p.candidate.id));
    expect(store.getState().project.files['policies.yaml']).not.toContain('flows');
  });

  it('says what is missing instead of calling a model without a generator', async () => {
    const { engine, seen } = extractor();
    const store = await ready(engine, false);
    await store.getState().planExtraction();
    expect(store.getState().extractJob).toEqual({
      status: 'unavailable',
      message: 'Choose a model for the generator first (Models in the header).',
    });
    await store.getState().extractWithModel();
    expect(seen).toHaveLength(0);
  });
});
