import type {
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionParams,
  ChatCompletionTool,
  ChatCompletionToolFunctionParameters,
} from '@wllama/wllama/esm/index.js';
import type {
  ChatDelta,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatToolCall,
  FinishReason,
} from '../../../core/index.ts';
import { ModelError } from '../../../core/index.ts';

/** wllama's streaming request, as this adapter sends it. */
export type WllamaChatParams = ChatCompletionParams & { stream: true };

function toMessage(message: ChatMessage): ChatCompletionMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls &&
          message.toolCalls.length > 0 && {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          }),
      };
  }
}

/**
 * Our request as wllama's OpenAI-shaped one. A named tool choice becomes `required` over that
 * one tool, since wllama 3.8 ignores named choices. Qwen3's thinking is switched off (other
 * templates ignore the flag): a simulated turn wants the answer, not the reasoning.
 */
export function toWllamaParams(request: ChatRequest, abortSignal: AbortSignal): WllamaChatParams {
  const choice = request.toolChoice;
  let tools = request.tools ?? [];
  if (typeof choice === 'object') {
    tools = tools.filter((t) => t.name === choice.name);
    if (tools.length === 0) {
      throw new ModelError('bad-request', `The tool choice names "${choice.name}", no such tool.`);
    }
  }
  const functions: ChatCompletionTool[] = tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: t.parameters as unknown as ChatCompletionToolFunctionParameters,
    },
  }));
  return {
    messages: request.messages.map(toMessage),
    stream: true,
    abortSignal,
    chat_template_kwargs: { enable_thinking: false },
    ...(functions.length > 0 && {
      tools: functions,
      tool_choice: typeof choice === 'object' ? 'required' : (choice ?? 'auto'),
    }),
    ...(request.responseSchema && {
      response_format: {
        type: 'json_schema' as const,
        json_schema: {
          name: request.responseSchema.name,
          schema: request.responseSchema.schema,
          strict: true,
        },
      },
    }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    ...(request.seed !== undefined && { seed: request.seed }),
  };
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
};

/**
 * Gathers a streamed answer: passes each piece on as a ChatDelta and builds the ChatResponse
 * (text, tool calls by index, finish reason, usage from `usage` or llama.cpp's `timings`).
 */
export class StreamedAnswer {
  private text = '';
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private finish: string | null = null;
  private inputTokens = 0;
  private outputTokens = 0;

  private readonly model: string;
  private readonly onDelta: ((delta: ChatDelta) => void) | undefined;

  constructor(model: string, onDelta: ((delta: ChatDelta) => void) | undefined) {
    this.model = model;
    this.onDelta = onDelta;
  }

  /** Takes in one chunk of the stream. */
  add(chunk: ChatCompletionChunk): void {
    const choice = chunk.choices[0];
    if (choice) {
      const delta = choice.delta;
      if (delta.content) {
        this.text += delta.content;
        this.onDelta?.({ kind: 'text', text: delta.content });
      }
      for (const part of delta.tool_calls ?? []) this.addToolCall(part);
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    if (chunk.usage) {
      this.inputTokens = chunk.usage.prompt_tokens;
      this.outputTokens = chunk.usage.completion_tokens;
    } else if (chunk.timings) {
      this.inputTokens = chunk.timings.prompt_n + chunk.timings.cache_n;
      this.outputTokens = chunk.timings.predicted_n;
    }
  }

  private addToolCall(
    part: NonNullable<ChatCompletionChunk['choices'][0]['delta']['tool_calls']>[0],
  ) {
    const call = (this.calls[part.index] ??= { id: '', name: '', arguments: '' });
    if (part.id) call.id = part.id;
    if (part.function?.name) call.name += part.function.name;
    if (part.function?.arguments) call.arguments += part.function.arguments;
    this.onDelta?.({
      kind: 'tool_call',
      index: part.index,
      ...(part.id !== undefined && { id: part.id }),
      ...(part.function?.name !== undefined && { name: part.function.name }),
      ...(part.function?.arguments !== undefined && { arguments: part.function.arguments }),
    });
  }

  /** The finished turn. */
  response(): ChatResponse {
    const toolCalls: ChatToolCall[] = this.calls
      .filter((c) => c.name !== '')
      .map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments || '{}' }));
    return {
      message: {
        role: 'assistant',
        content: this.text,
        ...(toolCalls.length > 0 && { toolCalls }),
      },
      finishReason: this.finish === null ? 'other' : (FINISH[this.finish] ?? 'other'),
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
      model: this.model,
    };
  }
}
