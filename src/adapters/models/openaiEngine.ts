import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  Cancellation,
  ChatMessage,
  ChatOptions,
  ChatRequest,
  ChatResponse,
  ChatToolCall,
  FinishReason,
} from '../../core/index.ts';
import { ModelError } from '../../core/index.ts';
import { MAX_ANSWER_CHARS, answerCut, reportedCount } from './answerCap.ts';
import type { RemoteEngine, RemoteEngineConfig } from './remote.ts';
import { SDK_TIMEOUT_MS, abortSignalFor, requireBaseUrl, toModelError } from './sdkErrors.ts';

const SDK_ERRORS = { APIError, APIUserAbortError, APIConnectionError, APIConnectionTimeoutError };

/**
 * A ChatEngine for any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, OpenRouter, Ollama,
 * vLLM, LM Studio, llama.cpp server, ...) through the official `openai` SDK. Each `chat` is one
 * streamed request; the SDK's own retries are off, since core retries with backoff. Throws a
 * `bad-request` ModelError when the base URL is not an http(s) URL.
 */
export function createOpenAIEngine(config: RemoteEngineConfig): RemoteEngine {
  requireBaseUrl(config.baseUrl);
  const apiKey = config.apiKey === '' ? undefined : config.apiKey;
  const baseUrl = normaliseBaseUrl(config.baseUrl);
  const client = new OpenAI({
    baseURL: baseUrl,
    // The SDK insists on a credential; a key-less local server gets none sent at all.
    apiKey: apiKey ?? 'no-key',
    organization: null,
    project: null,
    defaultHeaders: {
      ...config.headers,
      ...(apiKey === undefined && { Authorization: null }),
    },
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    logLevel: 'off',
    ...(config.fetch && { fetch: config.fetch }),
  });
  const fail = (
    error: unknown,
    during: 'request' | 'stream',
    signal?: Cancellation,
    model?: string,
  ) =>
    toModelError(error, SDK_ERRORS, {
      baseUrl,
      apiKey,
      signal,
      during,
      ...(model !== undefined && { model }),
    });
  // api.openai.com rejects max_tokens for its newer models; other servers may not know the new name.
  const officialOpenAI = /^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl);

  return {
    async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
      const abort = abortSignalFor(options.signal);
      try {
        let stream;
        try {
          stream = await client.chat.completions.create(toParams(request, officialOpenAI), {
            signal: abort.signal,
          });
        } catch (error) {
          throw fail(error, 'request', options.signal, request.model);
        }
        const answer = new Answer(request, options.onDelta);
        try {
          for await (const chunk of stream) answer.add(chunk);
        } catch (error) {
          throw fail(error, 'stream', options.signal, request.model);
        }
        if (options.signal?.aborted) throw new ModelError('aborted', 'The call was stopped.');
        return answer.finish();
      } finally {
        abort.dispose();
      }
    },

    async listModels(signal?: Cancellation): Promise<string[]> {
      const abort = abortSignalFor(signal);
      try {
        const ids: string[] = [];
        for await (const model of client.models.list({ signal: abort.signal })) ids.push(model.id);
        return ids;
      } catch (error) {
        throw fail(error, 'request', signal);
      } finally {
        abort.dispose();
      }
    },
  };
}

/** A base URL with `/v1` added when it names only a server, as users of Ollama often write it. */
function normaliseBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  const url = new URL(trimmed);
  return url.pathname === '' || url.pathname === '/' ? `${trimmed}/v1` : trimmed;
}

function toParams(
  request: ChatRequest,
  officialOpenAI: boolean,
): ChatCompletionCreateParamsStreaming {
  const tools = request.tools ?? [];
  const choice = request.toolChoice;
  return {
    model: request.model,
    messages: request.messages.map(toWire),
    stream: true,
    stream_options: { include_usage: true },
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        type: 'function' as const,
        function: {
          name: tool.name,
          description: tool.description,
          parameters: { ...tool.parameters },
        },
      })),
      ...(choice !== undefined && {
        tool_choice:
          typeof choice === 'object'
            ? { type: 'function' as const, function: { name: choice.name } }
            : choice,
      }),
    }),
    ...(request.responseSchema && {
      response_format: {
        type: 'json_schema' as const,
        json_schema: {
          name: request.responseSchema.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64),
          schema: { ...request.responseSchema.schema },
          strict: false,
        },
      },
    }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.maxTokens !== undefined &&
      (officialOpenAI
        ? { max_completion_tokens: request.maxTokens }
        : // eslint-disable-next-line @typescript-eslint/no-deprecated -- Ollama, LM Studio and llama.cpp server read only this name
          { max_tokens: request.maxTokens })),
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- still honoured, and runs need it to be repeatable
    ...(request.seed !== undefined && { seed: request.seed }),
  };
}

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

/** A streamed answer being put together, chunk by chunk. */
class Answer {
  private text = '';
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private finishReason: string | undefined;
  // None reported until a usage chunk comes (core estimates what never does).
  private usage = { inputTokens: Number.NaN, outputTokens: Number.NaN };
  private model: string;
  private chars = 0;
  private readonly request: ChatRequest;
  private readonly onDelta: ChatOptions['onDelta'];

  constructor(request: ChatRequest, onDelta: ChatOptions['onDelta']) {
    this.request = request;
    this.model = request.model;
    this.onDelta = onDelta;
  }

  /** Takes one chunk; throws a `too-long` ModelError once the answer passes its cap. */
  add(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) {
      this.usage = {
        inputTokens: reportedCount(chunk.usage.prompt_tokens),
        outputTokens: reportedCount(chunk.usage.completion_tokens),
      };
    }
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const { content, tool_calls: toolCalls } = choice.delta;
      if (content) {
        this.text += content;
        this.chars += content.length;
        this.onDelta?.({ kind: 'text', text: content });
      }
      for (const [position, part] of (toolCalls ?? []).entries()) {
        // Some servers leave out the index when they send each call whole.
        const index = typeof part.index === 'number' ? part.index : position;
        const call = (this.calls[index] ??= { id: '', name: '', arguments: '' });
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) {
          call.arguments += part.function.arguments;
          this.chars += part.function.arguments.length;
        }
        this.onDelta?.({
          kind: 'tool_call',
          index,
          ...(part.id && { id: part.id }),
          ...(part.function?.name && { name: part.function.name }),
          ...(part.function?.arguments && { arguments: part.function.arguments }),
        });
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    if (this.chars > MAX_ANSWER_CHARS) throw answerCut(this.request, this.chars);
  }

  finish(): ChatResponse {
    if (this.finishReason === undefined) {
      throw new ModelError('server', 'The stream was cut off before the answer was complete.');
    }
    const toolCalls: ChatToolCall[] = this.calls
      .filter((call) => call.name !== '' || call.arguments !== '')
      .map((call) => ({
        id: call.id === '' ? `call_${Math.random().toString(36).slice(2, 12)}` : call.id,
        name: call.name,
        arguments: call.arguments,
      }));
    let finishReason = FINISH[this.finishReason] ?? 'other';
    // Some servers say "stop" even when the turn ends in tool calls.
    if (toolCalls.length > 0 && finishReason === 'stop') finishReason = 'tool_calls';
    return {
      message: {
        role: 'assistant',
        content: this.text,
        ...(toolCalls.length > 0 && { toolCalls }),
      },
      finishReason,
      usage: this.usage,
      model: this.model,
    };
  }
}
