import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Usage } from './chat.ts';
import { countedUsage, isTokenCount, requestTokens } from './usageCheck.ts';

const REQUEST: Pick<ChatRequest, 'messages' | 'maxTokens'> = {
  messages: [{ role: 'user', content: 'Where is my parcel?' }],
  maxTokens: 300,
};
const ANSWER = { role: 'assistant', content: 'It left the depot today.' } as const;

/** Anything a provider might put where a count goes. */
const anyCount = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 1e308),
  fc.constant(undefined as unknown as number),
);

describe('countedUsage', () => {
  it('keeps true counts as they are', () => {
    expect(countedUsage({ inputTokens: 12, outputTokens: 7 }, REQUEST, ANSWER)).toEqual({
      inputTokens: 12,
      outputTokens: 7,
    });
  });

  it.each<[string, Usage | undefined, RegExp]>([
    ['no usage', undefined, /no token counts/],
    ['only a total (the counts left out)', { inputTokens: NaN, outputTokens: NaN }, /no token/],
    ['negative counts', { inputTokens: -400, outputTokens: -99_990 }, /cannot be true \(-400 in/],
    ['a fraction', { inputTokens: 1.5, outputTokens: 2 }, /cannot be true/],
    ['ten million tokens', { inputTokens: 20, outputTokens: 10_000_000 }, /10,000,000 output/],
  ])('refuses %s and estimates from characters, saying why', (_, reported, why) => {
    const counted = countedUsage(reported, REQUEST, ANSWER);
    expect(counted.estimated).toMatch(why);
    // "Where is my parcel?" is 19 characters, the answer 24: five and six tokens.
    expect(counted).toMatchObject({ inputTokens: 5, outputTokens: 6 });
  });

  it('never gives a count that is not a whole number of at least zero', () => {
    fc.assert(
      fc.property(anyCount, anyCount, fc.string(), (inputTokens, outputTokens, text) => {
        const counted = countedUsage(
          { inputTokens, outputTokens },
          { messages: [{ role: 'user', content: text }], maxTokens: 300 },
          { role: 'assistant', content: text },
        );
        expect(isTokenCount(counted.inputTokens)).toBe(true);
        expect(isTokenCount(counted.outputTokens)).toBe(true);
        expect(counted.outputTokens).toBeLessThanOrEqual(Math.max(300, Math.ceil(text.length / 4)));
        // What it takes, it takes unchanged; what it refuses, it says.
        const kept = counted.inputTokens === inputTokens && counted.outputTokens === outputTokens;
        expect(kept || counted.estimated !== undefined).toBe(true);
      }),
    );
  });

  it('counts the request by its messages, tool calls and tools', () => {
    expect(
      requestTokens({
        messages: [
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c', name: 'abcd', arguments: '{}' }],
          },
        ],
        tools: [{ name: 'abcd', description: 'efgh', parameters: {} }],
      }),
    ).toBe(Math.ceil((4 + 2 + 4 + 4 + 2) / 4));
  });
});
