import type { Cancellation, ChatEngine, ChatMessage, ChatToolCall, ToolSpec } from './chat.ts';
import { checkedChat } from './checked.ts';
import { ModelError } from './errors.ts';
import type { RetryPolicy, RetryRuntime } from './retry.ts';

/** What a connection test found. Times are milliseconds. */
export type ConnectionReport =
  | {
      readonly ok: true;
      readonly model: string;
      /** From sending the request to having the whole tool call. */
      readonly toolCallMs: number;
      /** The whole round trip: the tool call, its result sent back, and the model's answer. */
      readonly totalMs: number;
      readonly toolCall: ChatToolCall;
      readonly answer: string;
    }
  | {
      readonly ok: false;
      /** Which step failed. */
      readonly step: 'tool-call' | 'answer';
      readonly error: ModelError;
      readonly totalMs: number;
    };

/** The one tool a connection test offers. */
export const CONNECTION_TEST_TOOL: ToolSpec = {
  name: 'get_local_time',
  description: 'Returns the local time in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'The city, e.g. "Paris".' } },
    required: ['city'],
    additionalProperties: false,
  },
};

/** Few attempts and a short wait: a person is watching the button. */
const TEST_POLICY: RetryPolicy = {
  attempts: 2,
  baseDelayMs: 500,
  maxDelayMs: 2_000,
  timeoutMs: 60_000,
};

/**
 * Runs one real tool-call round trip against an engine: the model must call a tool with valid
 * arguments, then answer once it has the tool's result. This is what a simulation does on every
 * agent turn, so passing it means the endpoint, the key and the model are all usable.
 */
export async function testConnection(
  engine: ChatEngine,
  model: string,
  deps: {
    readonly clock: () => number;
    readonly runtime: RetryRuntime;
    readonly signal?: Cancellation;
    readonly policy?: RetryPolicy;
  },
): Promise<ConnectionReport> {
  const start = deps.clock();
  const options = {
    runtime: deps.runtime,
    policy: deps.policy ?? TEST_POLICY,
    ...(deps.signal && { signal: deps.signal }),
  };
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are checking that tool calls work. Use the tools you have.' },
    { role: 'user', content: 'What time is it in Paris right now?' },
  ];
  let toolCall: ChatToolCall;
  let toolCallMs: number;
  try {
    const first = await checkedChat(
      engine,
      {
        model,
        messages,
        tools: [CONNECTION_TEST_TOOL],
        toolChoice: 'required',
        maxTokens: 128,
        temperature: 0,
      },
      options,
    );
    toolCallMs = deps.clock() - start;
    const call = first.message.toolCalls?.[0];
    if (!call) throw new ModelError('malformed-output', 'The model did not call the tool.');
    toolCall = call;
    messages.push(first.message, {
      role: 'tool',
      toolCallId: call.id,
      content: JSON.stringify({ city: 'Paris', time: '14:05' }),
    });
  } catch (error) {
    return {
      ok: false,
      step: 'tool-call',
      error: asModelError(error),
      totalMs: deps.clock() - start,
    };
  }
  try {
    const second = await checkedChat(
      engine,
      { model, messages, tools: [CONNECTION_TEST_TOOL], maxTokens: 128, temperature: 0 },
      options,
    );
    return {
      ok: true,
      model: second.model,
      toolCallMs,
      totalMs: deps.clock() - start,
      toolCall,
      answer: second.message.content,
    };
  } catch (error) {
    return { ok: false, step: 'answer', error: asModelError(error), totalMs: deps.clock() - start };
  }
}

function asModelError(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  return new ModelError('server', error instanceof Error ? error.message : String(error));
}
