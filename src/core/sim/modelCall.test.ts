import { describe, expect, it } from 'vitest';
import { instantRuntime, modelReply, queuedEngine } from '../../test/scriptedModels.ts';
import { ModelError } from '../models/errors.ts';
import type { SimEvent } from './events.ts';
import { loggedChat } from './modelCall.ts';

const PRICES = { m: { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } };

/** One call through loggedChat on a scripted engine; its usage events and what it gave. */
async function call(...answers: Parameters<typeof queuedEngine>[0]) {
  const events: SimEvent[] = [];
  let tick = 0;
  const { engine } = queuedEngine(answers);
  const outcome = await loggedChat(
    'agent',
    { engine, model: 'm' },
    {
      messages: [{ role: 'user', content: 'Hi' }],
      responseSchema: { name: 'x', schema: { type: 'object' } },
    },
    {
      runtime: instantRuntime,
      prices: PRICES,
      clock: () => (tick += 10),
      emit: (e) => events.push(e),
    },
    { dialogue: 'd#1' },
  ).catch((error: unknown) => error);
  return { events, outcome };
}

describe('loggedChat', () => {
  it('logs a call that worked with its tokens, cost and time', async () => {
    const { events } = await call(modelReply('{}', [], { inputTokens: 3, outputTokens: 2 }));
    expect(events).toEqual([
      {
        type: 'usage',
        at: 20,
        dialogue: 'd#1',
        role: 'agent',
        model: 'm',
        inputTokens: 3,
        outputTokens: 2,
        cost: 5,
        ms: 10,
      },
    ]);
  });

  it('logs a call that answered badly twice with both answers’ tokens, paid for, and how it failed', async () => {
    const { events, outcome } = await call(
      modelReply('not json', [], { inputTokens: 3, outputTokens: 2 }),
      modelReply('still not', [], { inputTokens: 4, outputTokens: 1 }),
    );
    expect(outcome).toBeInstanceOf(ModelError);
    expect(events).toEqual([
      {
        type: 'usage',
        at: 20,
        dialogue: 'd#1',
        role: 'agent',
        model: 'm',
        inputTokens: 7,
        outputTokens: 3,
        cost: 10,
        ms: 10,
        failed: 'malformed-output',
      },
    ]);
  });

  it('logs a provider failure with no tokens known, and an engine’s own fault as unexpected', async () => {
    const provider = await call(new ModelError('auth', 'The provider refused the API key (401).'));
    expect(provider.events[0]).toMatchObject({
      inputTokens: 0,
      outputTokens: 0,
      cost: 0,
      failed: 'auth',
    });
    const broken = await call(() => {
      throw new TypeError('boom');
    });
    expect(broken.events[0]).toMatchObject({ failed: 'unexpected' });
    expect(broken.outcome).toBeInstanceOf(TypeError);
  });
});
