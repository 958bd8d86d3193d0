import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantRuntime, modelReply, queuedEngine } from '../../test/scriptedModels.ts';
import { ModelError } from '../models/errors.ts';
import type { SimEvent } from '../sim/events.ts';
import { askJson } from './assistCall.ts';
import { estimateAssist, meteredContext } from './assistCost.ts';
import {
  EXTRACT_ANSWER_SCHEMA,
  POLICY_CATEGORIES,
  extractByModel,
  planExtract,
} from './extractByModel.ts';

const PRICES = { 'mini-1': { inputPerMillion: 1, outputPerMillion: 4 } };

function context(events: SimEvent[]) {
  return {
    runtime: instantRuntime,
    prices: PRICES,
    clock: () => 0,
    emit: (e: SimEvent) => events.push(e),
  };
}

describe('assist calls', () => {
  it('estimates dollars from the price table; a local model is free, an unpriced one unknown', () => {
    const size = { calls: 2, inputTokens: 1_000_000, outputTokens: 500_000 };
    expect(estimateAssist(size, 'mini-1', PRICES)).toMatchObject({
      cost: 3,
      free: false,
      maxCalls: 2,
    });
    expect(estimateAssist(size, 'local', PRICES, true)).toMatchObject({ cost: 0, free: true });
    expect(estimateAssist(size, 'mystery', PRICES).cost).toBeNull();
  });

  it('asks for JSON by schema, and logs every call’s usage, a failed one included', async () => {
    const prompt =
      '## Refunds\nRefund to the original card.\n\n## Changes\nConfirm before a change.';
    const good = JSON.stringify({
      policies: [
        {
          text: 'Refund to the original card.',
          category: 'refunds',
          challenge: 2,
          tools: [],
          quote: 'Refund to the original card.',
        },
      ],
    });
    const { engine, requests } = queuedEngine([
      modelReply(good, [], { inputTokens: 300, outputTokens: 40 }),
      new ModelError('auth', 'HTTP 401: the key is wrong', { status: 401 }),
    ]);
    const events: SimEvent[] = [];
    const plan = planExtract(prompt, [], [...POLICY_CATEGORIES]);
    const result = await extractByModel(
      prompt,
      plan,
      { tools: [], categories: [...POLICY_CATEGORIES] },
      (text) =>
        askJson({ engine, model: 'mini-1' }, context(events), text, {
          name: 'policies',
          schema: EXTRACT_ANSWER_SCHEMA,
        }),
    );
    expect(requests[0]?.responseSchema?.name).toBe('policies');
    expect(result.candidates.map((c) => c.text)).toEqual(['Refund to the original card.']);
    expect(result.problems).toEqual([
      expect.stringMatching(/^Section “Changes” \(line 4\): the model call failed/),
    ]);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'usage',
        role: 'generator',
        model: 'mini-1',
        inputTokens: 300,
        outputTokens: 40,
      }),
      expect.objectContaining({ type: 'usage', role: 'generator', failed: 'auth' }),
    ]);
    expect(events[0]).toMatchObject({ cost: (300 * 1 + 40 * 4) / 1_000_000 });
  });
});

describe('meteredContext', () => {
  it('sums every usage event and no other, counts failed calls, and still passes each event on', () => {
    const usage = fc.record({
      inputTokens: fc.nat(5000),
      outputTokens: fc.nat(5000),
      cost: fc.option(fc.nat(100), { nil: null }),
      failed: fc.option(fc.constant('timeout' as const), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(usage, fc.constant('other' as const)), { maxLength: 12 }),
        (items) => {
          const passed: SimEvent[] = [];
          const { context, spent } = meteredContext({
            ...context0(),
            emit: (e: SimEvent) => passed.push(e),
          });
          const events = items.map((item): SimEvent =>
            item === 'other'
              ? { type: 'run-ended', at: 0, reason: 'done' }
              : {
                  type: 'usage',
                  at: 0,
                  role: 'generator',
                  model: 'm',
                  ms: 0,
                  inputTokens: item.inputTokens,
                  outputTokens: item.outputTokens,
                  cost: item.cost,
                  ...(item.failed !== undefined && { failed: item.failed }),
                },
          );
          for (const event of events) context.emit(event);
          const used = items.filter((i) => i !== 'other');
          expect(passed).toEqual(events);
          expect(spent()).toEqual({
            calls: used.length,
            failed: used.filter((u) => u.failed !== undefined).length,
            inputTokens: used.reduce((n, u) => n + u.inputTokens, 0),
            outputTokens: used.reduce((n, u) => n + u.outputTokens, 0),
            cost: used.some((u) => u.cost === null)
              ? null
              : used.reduce((n, u) => n + (u.cost ?? 0), 0),
          });
        },
      ),
    );
  });
});

function context0() {
  return { runtime: instantRuntime, prices: PRICES, clock: () => 0 };
}
