import type { Delivery } from '../servers/http.ts';

/*
 * Hostile providers: what a test server is scripted to send in place of honest usage, or of an
 * answer that ends. Each is named for what it attacks; see README.md.
 */

/** Usage objects in the OpenAI chat-completions shape, by what they attack. */
export const OPENAI_USAGE = {
  'only-total-tokens': { total_tokens: 1234 },
  'negative-counts': { prompt_tokens: -400_000, completion_tokens: -99_990_000 },
  'ten-million-tokens': { prompt_tokens: 20, completion_tokens: 10_000_000 },
  'counts-as-text': { prompt_tokens: '12', completion_tokens: '3' },
  'no-input-count': { completion_tokens: 3 },
} as const;

/** The same attacks in the Anthropic messages shape. */
export const ANTHROPIC_USAGE = {
  'only-total-tokens': { total_tokens: 1234 },
  'negative-counts': { input_tokens: -400_000, output_tokens: -99_990_000 },
  'ten-million-tokens': { input_tokens: 20, output_tokens: 10_000_000 },
  'counts-as-text': { input_tokens: '12', output_tokens: '3' },
  'no-input-count': { output_tokens: 3 },
} as const;

/** A stream that never ends: 1 KB of text every 5 ms for as long as the client listens. */
export const ENDLESS_STREAM: Delivery & { text: string } = {
  text: '',
  forever: 'endless words '.repeat(73),
  chunkDelayMs: 5,
};
