import type { ChatRequest } from '../../core/index.ts';
import { ModelError, estimateTokens, requestTokens } from '../../core/index.ts';

/**
 * The most characters an answer may take, its words and tool-call arguments together: far past
 * any `maxTokens` a run asks for, so only a provider that ignores it (or streams forever) meets it.
 */
export const MAX_ANSWER_CHARS = 200_000;

/**
 * The failure that ends an answer cut at the cap: a `too-long` ModelError (the provider's fault,
 * not retried) carrying the tokens estimated from the characters sent and received.
 */
export function answerCut(request: ChatRequest, chars: number): ModelError {
  const cap = MAX_ANSWER_CHARS.toLocaleString('en-US');
  return new ModelError(
    'too-long',
    `The answer was cut at ${cap} characters: the provider kept sending past the most an answer may take.`,
    {
      usage: {
        inputTokens: requestTokens(request),
        outputTokens: estimateTokens(chars),
        estimated: `The answer was cut at ${cap} characters, before the provider sent its counts.`,
      },
    },
  );
}

/** A count as the provider sent it: a number, or NaN when it sent none (for `countedUsage`). */
export function reportedCount(value: unknown): number {
  return typeof value === 'number' ? value : Number.NaN;
}
