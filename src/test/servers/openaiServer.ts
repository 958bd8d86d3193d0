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
  writeForever,
  writeStream,
} from './http.ts';

/** The parts of a chat-completions request body the server reads. */
export interface OpenAIRequestBody {
  model?: string;
  messages?: { role?: string; content?: unknown }[];
  tools?: { function?: { name?: string; parameters?: unknown } }[];
  tool_choice?: string | { function?: { name?: string } };
  response_format?: { type?: string; json_schema?: { schema?: unknown } };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

const ERROR_TYPES: Readonly<Record<number, [type: string, code: string | null]>> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
};

function openaiError(status: number, message: string): unknown {
  const [type, code] = ERROR_TYPES[status] ?? ['server_error', null];
  return { error: { message, type, param: null, code } };
}

const CONTEXT_TOO_LONG =
  "This model's maximum context length is 8192 tokens. However, your messages resulted in 12000 tokens. Please reduce the length of the messages.";

/**
 * Starts a server that speaks the OpenAI chat-completions protocol (streamed SSE and plain
 * JSON, and `GET /v1/models`); give `url` to the engine as its base URL.
 */
export async function startOpenAIServer(options: ServerOptions = {}): Promise<TestServer> {
  const models = options.models ?? ['test-model'];
  const protocol: Protocol = {
    basePath: '/v1',
    error: openaiError,
    authMessage: (presented) =>
      `Incorrect API key provided: ${presented}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    handle(request, res, next) {
      if (request.method === 'GET' && request.path === '/v1/models') {
        const data = models.map((id) => ({
          id,
          object: 'model',
          created: 1700000000,
          owned_by: 'test',
        }));
        sendJson(res, 200, { object: 'list', data });
        return;
      }
      if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
        sendJson(
          res,
          404,
          openaiError(404, `Unknown request URL: ${request.method} ${request.path}`),
        );
        return;
      }
      const body = (request.body ?? {}) as OpenAIRequestBody;
      const model = body.model ?? 'unknown';
      const reply = next() ?? defaultReply(conversationOf(body));
      void settle(reply, res, protocol, { model, contextTooLong: CONTEXT_TOO_LONG }).then(
        (content) => {
          if (content) answer(res, body, model, content);
        },
      );
    },
  };
  return startServer(protocol, options);
}

function conversationOf(body: OpenAIRequestBody): Conversation {
  const last = body.messages?.at(-1);
  const text = typeof last?.content === 'string' ? last.content : '';
  const choice = body.tool_choice;
  return {
    tools: (body.tools ?? []).map((t) => ({
      name: t.function?.name ?? '',
      parameters: t.function?.parameters,
    })),
    toolChoice:
      typeof choice === 'object'
        ? { name: choice.function?.name ?? '' }
        : choice === 'required' || choice === 'none'
          ? choice
          : 'auto',
    last: { role: last?.role === 'user' || last?.role === 'tool' ? last.role : 'other', text },
    ...(body.response_format?.type === 'json_schema' && {
      schema: body.response_format.json_schema?.schema,
    }),
  };
}

let counter = 0;

function answer(res: ServerResponse, body: OpenAIRequestBody, model: string, reply: ContentReply) {
  const id = `chatcmpl-${++counter}`;
  const calls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${++counter}`,
    name: call.name,
    arguments: argumentsText(call),
  }));
  const text = reply.text ?? '';
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: estimateTokens(JSON.stringify(body.messages ?? [])),
    completion_tokens: estimateTokens(text + calls.map((c) => c.arguments).join('')),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const created = Math.floor(Date.now() / 1000);
  if (body.stream !== true) {
    const toolCalls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: calls.length > 0 && text === '' ? null : text,
            ...(calls.length > 0 && { tool_calls: toolCalls }),
          },
          finish_reason: finish,
        },
      ],
      ...(!reply.noUsage && { usage: reply.usage ?? usage }),
    });
    return;
  }
  const chunk = (delta: object, finishReason: string | null = null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    })}\n\n`;
  const chunks = [chunk({ role: 'assistant', content: '' })];
  if (reply.forever !== undefined) {
    const more = chunk({ content: reply.forever });
    startStream(res);
    void writeForever(res, chunks, () => more, reply.chunkDelayMs);
    return;
  }
  for (const piece of textPieces(text)) chunks.push(chunk({ content: piece }));
  for (const [index, call] of calls.entries()) {
    chunks.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const fragment of jsonFragments(call.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  }
  chunks.push(chunk({}, finish));
  if (body.stream_options?.include_usage && !reply.noUsage) {
    chunks.push(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: reply.usage ?? usage })}\n\n`,
    );
  }
  chunks.push('data: [DONE]\n\n');
  startStream(res);
  void writeStream(res, chunks, reply);
}

/** The request bodies of chat-completion calls, for assertions. */
export const completionBodies = (requests: readonly RecordedRequest[]): OpenAIRequestBody[] =>
  requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions')
    .map((r) => r.body as OpenAIRequestBody);
