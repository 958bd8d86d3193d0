import type { ServerResponse } from 'node:http';
import type { Conversation } from './assistant.ts';
import { defaultReply } from './assistant.ts';
import type { ContentReply, Protocol, RecordedRequest, ServerOptions, TestServer } from './http.ts';
import {
  argumentsText,
  estimateTokens,
  jsonFragments,
  sendJson,
  settle,
  startServer,
  startStream,
  textPieces,
  writeStream,
} from './http.ts';

/** A content block of an Anthropic message, as far as the server reads it. */
interface Block {
  type?: string;
  text?: string;
  content?: unknown;
}

/** The parts of a Messages API request body the server reads. */
export interface AnthropicRequestBody {
  model?: string;
  max_tokens?: number;
  system?: unknown;
  messages?: { role?: string; content?: string | Block[] }[];
  tools?: { name?: string; input_schema?: unknown }[];
  tool_choice?: { type?: string; name?: string };
  stream?: boolean;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function anthropicError(status: number, message: string): unknown {
  const type = ERROR_TYPES[status] ?? 'api_error';
  return { type: 'error', error: { type, message }, request_id: `req_test${status}` };
}

/**
 * Starts a server that speaks the Anthropic Messages protocol (streamed SSE events and plain
 * JSON, and `GET /v1/models`); give `url` to the engine as its base URL.
 */
export async function startAnthropicServer(options: ServerOptions = {}): Promise<TestServer> {
  const models = options.models ?? ['test-model'];
  const protocol: Protocol = {
    basePath: '',
    error: anthropicError,
    authMessage: (presented) => `invalid x-api-key: ${presented}`,
    handle(request, res, next) {
      if (request.method === 'GET' && request.path === '/v1/models') {
        const data = models.map((id) => ({
          type: 'model',
          id,
          display_name: id,
          created_at: '2025-01-01T00:00:00Z',
        }));
        sendJson(res, 200, { data, has_more: false, first_id: models[0], last_id: models.at(-1) });
        return;
      }
      if (request.method !== 'POST' || request.path !== '/v1/messages') {
        sendJson(res, 404, anthropicError(404, `Not found: ${request.method} ${request.path}`));
        return;
      }
      const body = (request.body ?? {}) as AnthropicRequestBody;
      const model = body.model ?? 'unknown';
      if (typeof body.max_tokens !== 'number') {
        sendJson(res, 400, anthropicError(400, 'max_tokens: Field required'));
        return;
      }
      const reply = next() ?? defaultReply(conversationOf(body));
      const contextTooLong = 'prompt is too long: 212000 tokens > 200000 maximum';
      void settle(reply, res, protocol, { model, contextTooLong }).then((content) => {
        if (content) answer(res, body, model, content);
      });
    },
  };
  return startServer(protocol, options);
}

function conversationOf(body: AnthropicRequestBody): Conversation {
  const last = body.messages?.at(-1);
  const blocks: Block[] =
    typeof last?.content === 'string'
      ? [{ type: 'text', text: last.content }]
      : (last?.content ?? []);
  const result = blocks.find((b) => b.type === 'tool_result');
  const resultText =
    typeof result?.content === 'string' ? result.content : JSON.stringify(result?.content ?? '');
  const text = blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
  const choice = body.tool_choice;
  return {
    tools: (body.tools ?? []).map((t) => ({ name: t.name ?? '', parameters: t.input_schema })),
    toolChoice:
      choice?.type === 'tool'
        ? { name: choice.name ?? '' }
        : choice?.type === 'any'
          ? 'required'
          : choice?.type === 'none'
            ? 'none'
            : 'auto',
    last:
      last?.role !== 'user'
        ? { role: 'other', text: '' }
        : result
          ? { role: 'tool', text: resultText }
          : { role: 'user', text },
  };
}

let counter = 0;

function answer(
  res: ServerResponse,
  body: AnthropicRequestBody,
  model: string,
  reply: ContentReply,
) {
  const id = `msg_test${++counter}`;
  const text = reply.text ?? '';
  const calls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `toolu_test${++counter}`,
    name: call.name,
    arguments: argumentsText(call),
  }));
  const stopReason = calls.length > 0 ? 'tool_use' : 'end_turn';
  const inputTokens = estimateTokens(JSON.stringify([body.system, body.messages]));
  const outputTokens = estimateTokens(text + calls.map((c) => c.arguments).join(''));
  const usage = reply.noUsage
    ? undefined
    : { input_tokens: inputTokens, output_tokens: outputTokens };
  if (body.stream !== true) {
    sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [
        ...(text === '' ? [] : [{ type: 'text', text }]),
        ...calls.map((c) => ({
          type: 'tool_use',
          id: c.id,
          name: c.name,
          input: parseOr(c.arguments),
        })),
      ],
      stop_reason: stopReason,
      stop_sequence: null,
      ...(usage && { usage }),
    });
    return;
  }
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const chunks = [
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Without usage, the counts are left out (as a server that keeps none would).
        usage: reply.usage ?? (usage ? { input_tokens: inputTokens, output_tokens: 1 } : {}),
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (text !== '') {
    chunks.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of textPieces(text)) {
      chunks.push(
        event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }),
      );
    }
    chunks.push(event('content_block_stop', { index }));
    index++;
  }
  for (const call of calls) {
    const block = { type: 'tool_use', id: call.id, name: call.name, input: {} };
    chunks.push(event('content_block_start', { index, content_block: block }));
    for (const fragment of jsonFragments(call.arguments)) {
      const delta = { type: 'input_json_delta', partial_json: fragment };
      chunks.push(event('content_block_delta', { index, delta }));
    }
    chunks.push(event('content_block_stop', { index }));
    index++;
  }
  chunks.push(
    event('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: reply.usage ?? (usage ? { output_tokens: outputTokens } : {}),
    }),
    event('message_stop', {}),
  );
  startStream(res);
  void writeStream(res, chunks, reply);
}

function parseOr(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** The request bodies of Messages calls, for assertions. */
export const messageBodies = (requests: readonly RecordedRequest[]): AnthropicRequestBody[] =>
  requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/messages')
    .map((r) => r.body as AnthropicRequestBody);
