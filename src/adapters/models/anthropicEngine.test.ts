import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  ChatDelta,
  ChatRequest,
  ModelError,
  ModelErrorKind,
  RetryPolicy,
} from '../../core/index.ts';
import { checkedChat } from '../../core/index.ts';
import { messageBodies, startAnthropicServer } from '../../test/servers/anthropicServer.ts';
import type { ServerOptions, TestServer } from '../../test/servers/http.ts';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { createAnthropicEngine } from './anthropicEngine.ts';
import { platformRuntime } from './runtime.ts';
import { toModelError } from './sdkErrors.ts';

const POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 10, maxDelayMs: 50, timeoutMs: 3000 };
const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};
const ASK: ChatRequest = {
  model: 'test-model',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Hello?' },
  ],
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(options: ServerOptions = {}, apiKey?: string) {
  server = await startAnthropicServer(options);
  return { server, engine: createAnthropicEngine({ baseUrl: server.url, apiKey }) };
}

async function checked(engine: ReturnType<typeof createAnthropicEngine>, request: ChatRequest) {
  const retried: { kind: ModelErrorKind; delayMs: number }[] = [];
  const response = await checkedChat(engine, request, {
    runtime: platformRuntime,
    policy: POLICY,
    onRetry: (error, _attempt, delayMs) => retried.push({ kind: error.kind, delayMs }),
  });
  return { response, retried };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => error as ModelError,
  );

const bodies = () => messageBodies(server?.requests ?? []);

describe('createAnthropicEngine', () => {
  it('streams text with onDelta, separates the system prompt, and reports usage', async () => {
    const { engine } = await setUp({ script: [{ text: 'Hello there, traveller.' }] });
    const deltas: ChatDelta[] = [];
    const response = await engine.chat(ASK, { onDelta: (d) => deltas.push(d) });
    expect(response.message).toEqual({ role: 'assistant', content: 'Hello there, traveller.' });
    expect(response.finishReason).toBe('stop');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBeGreaterThan(1);
    expect(deltas.length).toBeGreaterThan(2);
    expect(bodies()[0]).toEqual({
      model: 'test-model',
      max_tokens: 1024,
      stream: true,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello?' }] }],
    });
  });

  it('assembles tool_use blocks from input_json_delta fragments', async () => {
    const { engine } = await setUp({
      script: [
        {
          text: 'Let me check.',
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris' }, id: 'toolu_a' },
            { name: 'get_weather', arguments: { city: 'Oslo' }, id: 'toolu_b' },
          ],
        },
      ],
    });
    const deltas: ChatDelta[] = [];
    const response = await engine.chat(
      { ...ASK, tools: [WEATHER], maxTokens: 200 },
      { onDelta: (d) => deltas.push(d) },
    );
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [
        { id: 'toolu_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'toolu_b', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ],
    });
    const parts = deltas.filter((d) => d.kind === 'tool_call');
    expect(parts.filter((d) => d.index === 1 && d.arguments !== undefined).length).toBeGreaterThan(
      1,
    );
    expect(bodies()[0]?.tools).toEqual([
      {
        name: 'get_weather',
        description: 'The weather in a city.',
        input_schema: WEATHER.parameters,
      },
    ]);
  });

  it('sends tool results as one user message of tool_result blocks, and maps tool choice', async () => {
    const { engine } = await setUp({ script: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }] });
    await engine.chat({
      model: 'test-model',
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Paris and Oslo?' },
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [
            { id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: 'sunny' },
        { role: 'tool', toolCallId: 'toolu_2', content: 'snow' },
      ],
    });
    await engine.chat({ ...ASK, tools: [WEATHER], toolChoice: 'required' });
    await engine.chat({ ...ASK, tools: [WEATHER], toolChoice: { name: 'get_weather' } });
    const [first, second, third] = bodies();
    expect(first?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Paris and Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'snow' },
        ],
      },
    ]);
    expect(first?.tool_choice).toBeUndefined();
    expect(second?.tool_choice).toEqual({ type: 'any' });
    expect(third?.tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('forces one tool for a JSON schema and returns its input as the answer text', async () => {
    const { engine } = await setUp();
    const schema = {
      type: 'object',
      properties: { violated: { type: 'boolean' } },
      required: ['violated'],
    };
    const deltas: ChatDelta[] = [];
    const response = await checkedChat(
      engine,
      { ...ASK, responseSchema: { name: 'verdict', schema } },
      { runtime: platformRuntime, policy: POLICY, onDelta: (d) => deltas.push(d) },
    );
    expect(response.message).toEqual({ role: 'assistant', content: '{"violated":true}' });
    expect(response.json).toEqual({ violated: true });
    expect(response.finishReason).toBe('stop');
    expect(deltas.every((d) => d.kind === 'text')).toBe(true);
    expect(bodies()[0]).toMatchObject({
      tools: [{ name: 'verdict', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'verdict' },
    });
  });

  it('sends the key, and none at all without one', async () => {
    const { engine } = await setUp({ requireKey: 'sk-ant-right' }, 'sk-ant-right');
    await engine.chat(ASK);
    const keyless = createAnthropicEngine({ baseUrl: `${server?.url ?? ''}/v1/` });
    expect((await failure(keyless.chat(ASK))).kind).toBe('auth');
    const [withKey, without] = server?.requests ?? [];
    expect(withKey?.headers.authorization ?? withKey?.headers['x-api-key']).toMatch(/sk-ant-right/);
    expect(without?.path).toBe('/v1/messages');
    expect(without?.headers.authorization).toBeUndefined();
    expect(without?.headers['x-api-key']).toBeUndefined();
  });

  it('waits as long as Retry-After asks after a 429, then succeeds', async () => {
    const { engine } = await setUp({ script: [{ status: 429, retryAfter: '1' }, { text: 'ok' }] });
    const started = performance.now();
    const { response, retried } = await checked(engine, ASK);
    expect(response.message.content).toBe('ok');
    expect(retried).toEqual([{ kind: 'rate-limit', delayMs: 1000 }]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries 529 overloaded, a 500 and a stream cut mid-way', async () => {
    const { engine } = await setUp({
      script: [
        { status: 529 },
        { status: 500 },
        { text: 'one two three four', cutAfterChunks: 4 },
        { text: 'ok' },
      ],
    });
    const retried: ModelErrorKind[] = [];
    const response = await checkedChat(engine, ASK, {
      runtime: platformRuntime,
      policy: { ...POLICY, attempts: 4 },
      onRetry: (error) => retried.push(error.kind),
    });
    expect(response.message.content).toBe('ok');
    expect(retried).toEqual(['server', 'server', 'server']);
    expect(server?.requests[2]?.closedEarly).toBe(true);
  });

  it('ends a hung request at the per-attempt timeout, then succeeds', async () => {
    const { engine } = await setUp({ script: [{ hang: true }, { text: 'ok' }] });
    const response = await checkedChat(engine, ASK, {
      runtime: platformRuntime,
      policy: { ...POLICY, timeoutMs: 300 },
    });
    expect(response.message.content).toBe('ok');
    await vi.waitFor(() => {
      expect(server?.requests[0]?.closedEarly).toBe(true);
    });
  });

  it('stops mid-stream when aborted, and the server sees the connection close', async () => {
    const { engine } = await setUp({
      script: [{ text: 'a long answer that keeps on going for a while', chunkDelayMs: 50 }],
    });
    const controller = new AbortController();
    const error = await failure(
      engine.chat(ASK, {
        signal: controller.signal,
        onDelta: () => {
          controller.abort();
        },
      }),
    );
    expect(error.kind).toBe('aborted');
    await vi.waitFor(() => {
      expect(server?.requests[0]?.closedEarly).toBe(true);
    });
  });

  it('classifies a wrong key, an unknown model and a too-long prompt', async () => {
    const { engine } = await setUp({
      models: ['test-model'],
      script: [{ status: 401 }, { contextTooLong: true }],
    });
    expect((await failure(checked(engine, ASK))).kind).toBe('auth');
    expect((await failure(checked(engine, ASK))).kind).toBe('context-length');
    const unknown = await failure(checked(engine, { ...ASK, model: 'claude-9' }));
    expect(unknown.kind).toBe('not-found');
    expect(unknown.message).toContain('"claude-9"');
  });

  it('never lets the API key into an error, even when the server echoes it', async () => {
    const key = 'sk-ant-SECRET-0123456789';
    const { engine } = await setUp({ requireKey: 'sk-ant-other' }, key);
    const error = await failure(engine.chat(ASK));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('invalid x-api-key');
    for (const text of [error.message, String(error), error.stack ?? '', JSON.stringify(error)]) {
      expect(text).not.toContain(key);
    }
  });

  it('repairs malformed tool input once, and fails on the second bad answer', async () => {
    const bad = { toolCalls: [{ name: 'get_weather', arguments: '{"city": Par' }] };
    const { engine } = await setUp({
      script: [
        bad,
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
        bad,
        bad,
      ],
    });
    const request: ChatRequest = { ...ASK, tools: [WEATHER], toolChoice: 'required' };
    const { response } = await checked(engine, request);
    expect(response.repaired).toBe(true);
    expect(response.message.toolCalls?.[0]?.arguments).toBe('{"city":"Paris"}');
    const repair = bodies()[1]?.messages?.at(-1);
    expect(repair?.role).toBe('user');
    expect(repair?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: expect.any(String) as string,
        content: expect.any(String) as string,
      },
    ]);
    expect(JSON.stringify(repair?.content)).toMatch(/invalid/);
    expect((await failure(checked(engine, request))).kind).toBe('malformed-output');
  });

  it('classifies error events that arrive in the middle of a stream', () => {
    const classes = { APIError, APIUserAbortError, APIConnectionError, APIConnectionTimeoutError };
    const event = (type: string, message: string) =>
      toModelError(
        new APIError(
          undefined,
          { type: 'error', error: { type, message } },
          undefined,
          new Headers(),
        ),
        classes,
        {
          baseUrl: 'https://api.anthropic.com',
          during: 'stream',
        },
      );
    expect(event('overloaded_error', 'Overloaded').kind).toBe('server');
    expect(event('rate_limit_error', 'Slow down').kind).toBe('rate-limit');
    expect(event('invalid_request_error', 'prompt is too long: 9 > 8').kind).toBe('context-length');
  });

  it('lists the models the server serves', async () => {
    const { engine } = await setUp({ models: ['claude-a', 'claude-b'] });
    expect(await engine.listModels()).toEqual(['claude-a', 'claude-b']);
  });
});
