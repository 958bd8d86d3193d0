import type { ChatMessage, ChatRequest, Usage } from './chat.ts';

/*
 * A provider's token counts are taken only when they can be true: whole numbers, at least zero,
 * and no more output than the call allowed. Anything else is refused, the tokens are estimated
 * from the characters sent and received instead, and the usage says why, so a report never shows
 * NaN or a negative figure and a budget is never switched off or handed back by a bad count.
 */

/** Characters per token for estimates: English text runs about four to a token. */
const CHARS_PER_TOKEN = 4;

/** Roughly how many tokens `chars` characters are (four characters a token, rounded up). */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The characters of a message as it is sent: its words and its tool calls. */
function messageChars(message: ChatMessage): number {
  let chars = message.content.length;
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  return chars;
}

/** Roughly how many tokens a request sends: its messages and its tools' descriptions. */
export function requestTokens(request: Pick<ChatRequest, 'messages' | 'tools'>): number {
  let chars = 0;
  for (const message of request.messages) chars += messageChars(message);
  for (const tool of request.tools ?? [])
    chars += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  return estimateTokens(chars);
}

/** A count a provider may report: a whole number, zero or more. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The tokens to count for one turn. The provider's counts when both are whole numbers of at least
 * zero (a person's seat or a free engine may truly spend none) and the output is within the
 * `maxTokens` the request allowed; otherwise an estimate from
 * the characters of the request and of `answer` (none for a turn that gave no answer), with
 * `estimated` saying what the provider reported. Counts already estimated pass unchanged.
 */
export function countedUsage(
  reported: Usage | undefined,
  request: Pick<ChatRequest, 'messages' | 'tools' | 'maxTokens'>,
  answer?: ChatMessage,
): Usage {
  const already =
    reported?.estimated !== undefined &&
    isTokenCount(reported.inputTokens) &&
    isTokenCount(reported.outputTokens);
  if (already) return reported;
  const why = refusal(reported, request.maxTokens);
  if (why === undefined && reported) return reported;
  return {
    inputTokens: requestTokens(request),
    outputTokens: answer ? estimateTokens(messageChars(answer)) : 0,
    estimated: why ?? 'The provider reported no token counts.',
  };
}

/** Why reported counts cannot be used, in words, or nothing when they can. */
function refusal(reported: Usage | undefined, maxTokens: number | undefined): string | undefined {
  const input: unknown = reported?.inputTokens;
  const output: unknown = reported?.outputTokens;
  if (reported === undefined || (missing(input) && missing(output)))
    return 'The provider reported no token counts.';
  if (!isTokenCount(input) || !isTokenCount(output))
    return `The provider reported token counts that cannot be true (${shown(input)} in, ${shown(output)} out).`;
  if (maxTokens !== undefined && output > maxTokens)
    return `The provider reported ${output.toLocaleString('en-US')} output tokens, more than the ${maxTokens.toLocaleString('en-US')} the call allowed.`;
  return undefined;
}

const missing = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'number' && Number.isNaN(value));

function shown(value: unknown): string {
  if (missing(value)) return 'none';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value).slice(0, 40);
}
