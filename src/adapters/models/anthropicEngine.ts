import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type {
  Cancellation,
  ChatOptions,
  ChatRequest,
  ChatResponse,
  FinishReason,
} from '../../core/index.ts';
import { ModelError } from '../../core/index.ts';
import { MAX_ANSWER_CHARS, answerCut, reportedCount } from './answerCap.ts';
import type { SchemaTool } from './anthropicWire.ts';
import { toParams } from './anthropicWire.ts';
import type { RemoteEngine, RemoteEngineConfig } from './remote.ts';
import { SDK_TIMEOUT_MS, abortSignalFor, requireBaseUrl, toModelError } from './sdkErrors.ts';

const SDK_ERRORS = { APIError, APIUserAbortError, APIConnectionError, APIConnectionTimeoutError };

/**
 * A ChatEngine for Anthropic's Messages API (or a proxy that speaks it) through the official
 * `@anthropic-ai/sdk`. Each `chat` is one streamed request; the SDK's own retries are off, since
 * core retries with backoff. A requested JSON schema becomes one forced tool whose input is
 * returned as the message text. Throws a `bad-request` ModelError for a base URL that is not
 * an http(s) URL.
 */
export function createAnthropicEngine(config: RemoteEngineConfig): RemoteEngine {
  requireBaseUrl(config.baseUrl);
  const apiKey = config.apiKey === '' ? undefined : config.apiKey;
  // The SDK adds /v1 itself; people often paste it with the base URL.
  const baseUrl = config.baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
  const client = new Anthropic({
    baseURL: baseUrl,
    // The SDK insists on a credential; a key-less proxy gets none sent at all.
    apiKey: apiKey ?? 'no-key',
    defaultHeaders: {
      ...config.headers,
      ...(apiKey === undefined && { Authorization: null, 'x-api-key': null }),
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

  return {
    async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
      const abort = abortSignalFor(options.signal);
      const { params, schemaTool } = toParams(request);
      try {
        let stream;
        try {
          stream = await client.messages.create(params, { signal: abort.signal });
        } catch (error) {
          throw fail(error, 'request', options.signal, request.model);
        }
        const answer = new Answer(request, schemaTool, options.onDelta);
        try {
          for await (const event of stream) answer.add(event);
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
        for await (const model of client.models.list({}, { signal: abort.signal })) {
          ids.push(model.id);
        }
        return ids;
      } catch (error) {
        throw fail(error, 'request', signal);
      } finally {
        abort.dispose();
      }
    },
  };
}

const STOP: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

type Block = { text: string } | { id: string; name: string; json: string; call: number };

/** A streamed message being put together, event by event. */
class Answer {
  // Indexed by the stream's block index; blocks of other types leave holes.
  private readonly blocks: (Block | undefined)[] = [];
  private calls = 0;
  private schemaJson: string | undefined;
  private stopReason: string | undefined;
  // None reported until the stream says (core estimates what never comes).
  private inputTokens = Number.NaN;
  private outputTokens = Number.NaN;
  private model: string;
  private chars = 0;
  private readonly request: ChatRequest;
  private readonly schemaTool: SchemaTool | undefined;
  private readonly onDelta: ChatOptions['onDelta'];

  constructor(
    request: ChatRequest,
    schemaTool: SchemaTool | undefined,
    onDelta: ChatOptions['onDelta'],
  ) {
    this.request = request;
    this.model = request.model;
    this.schemaTool = schemaTool;
    this.onDelta = onDelta;
  }

  /** Takes one event; throws a `too-long` ModelError once the answer passes its cap. */
  add(event: RawMessageStreamEvent): void {
    this.read(event);
    if (this.chars > MAX_ANSWER_CHARS) throw answerCut(this.request, this.chars);
  }

  private read(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start': {
        // Hostile servers leave out what the SDK's types promise.
        const usage = event.message.usage as typeof event.message.usage | undefined;
        this.model = event.message.model;
        if (usage) {
          this.inputTokens = inputOf(usage);
          this.outputTokens = reportedCount(usage.output_tokens);
        }
        break;
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          this.blocks[event.index] = { text: block.text };
          if (block.text !== '') this.onDelta?.({ kind: 'text', text: block.text });
        } else if (block.type === 'tool_use') {
          const isSchema = block.name === this.schemaTool?.name;
          const call = isSchema ? -1 : this.calls++;
          this.blocks[event.index] = { id: block.id, name: block.name, json: '', call };
          if (call >= 0) {
            this.onDelta?.({ kind: 'tool_call', index: call, id: block.id, name: block.name });
          }
        }
        break;
      }
      case 'content_block_delta': {
        const block = this.blocks[event.index];
        const delta = event.delta;
        if (block && 'text' in block && delta.type === 'text_delta') {
          block.text += delta.text;
          this.chars += delta.text.length;
          this.onDelta?.({ kind: 'text', text: delta.text });
        } else if (block && 'json' in block && delta.type === 'input_json_delta') {
          block.json += delta.partial_json;
          this.chars += delta.partial_json.length;
          this.onDelta?.(
            block.call < 0
              ? { kind: 'text', text: delta.partial_json }
              : { kind: 'tool_call', index: block.call, arguments: delta.partial_json },
          );
        }
        break;
      }
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        this.outputTokens = reportedCount(event.usage.output_tokens);
        if (typeof event.usage.input_tokens === 'number') this.inputTokens = inputOf(event.usage);
        break;
      case 'message_stop':
      case 'content_block_stop':
        break;
    }
  }

  finish(): ChatResponse {
    if (this.stopReason === undefined) {
      throw new ModelError('server', 'The stream was cut off before the answer was complete.');
    }
    let text = '';
    const toolCalls = [];
    for (const block of this.blocks) {
      if (!block) continue;
      if ('text' in block) text += block.text;
      else if (block.call < 0) this.schemaJson = block.json;
      else toolCalls.push({ id: block.id, name: block.name, arguments: block.json || '{}' });
    }
    let finishReason = STOP[this.stopReason] ?? 'other';
    if (this.schemaJson !== undefined && toolCalls.length === 0) {
      text = this.schemaTool?.wrapped ? unwrap(this.schemaJson) : this.schemaJson;
      if (finishReason === 'tool_calls') finishReason = 'stop';
    }
    return {
      message: { role: 'assistant', content: text, ...(toolCalls.length > 0 && { toolCalls }) },
      finishReason,
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
      model: this.model,
    };
  }
}

/** Input tokens in all, cached ones included. */
function inputOf(usage: {
  input_tokens: number | null;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}): number {
  // A missing count of cached tokens is none; a missing count of the rest is not reported.
  return (
    reportedCount(usage.input_tokens) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

/** `{"value": X}` → the JSON text of X; anything else is returned as it came, for the check. */
function unwrap(json: string): string {
  try {
    const parsed = JSON.parse(json) as { value?: unknown };
    return 'value' in parsed ? JSON.stringify(parsed.value) : json;
  } catch {
    return json;
  }
}
