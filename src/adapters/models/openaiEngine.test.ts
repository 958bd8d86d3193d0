import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  ChatDelta,
  ChatRequest,
  ModelError,
  ModelErrorKind,
  RetryPolicy,
} from '../../core/index.ts';
import { checkedChat } from '../../core/index.ts';
import type { ServerOptions, TestServer } from '../../test/servers/http.ts';
import { completionBodies, startOpenAIServer } from '../../test/servers/openaiServer.ts';
import { createOpenAIEngine } from './openaiEngine.ts';
import { platformRuntime } from './runtime.ts';

const POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 10, maxDelayMs: 50, timeoutMs: 3000 };
const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
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
  vi.unstubAllGlobals();
  await server?.close();
  server = undefined;
});

async function setUp(options: ServerOptions = {}, apiKey?: string) {
  server = await startOpenAIServer(options);
  return { server, engine: createOpenAIEngine({ baseUrl: server.url, apiKey }) };
}

/** A checked call that records the kinds it retried on. */
async function checked(engine: ReturnType<typeof createOpenAIEngine>, request: ChatRequest) {
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

describe('createOpenAIEngine', () => {
  it('streams text, calling onDelta per piece, and reports usage', async () => {
    const { engine } = await setUp({ script: [{ text: 'Hello there, traveller.' }] });
    const deltas: ChatDelta[] = [];
    const response = await engine.chat(
      { ...ASK, temperature: 0.2, maxTokens: 50, seed: 7 },
      { onDelta: (d) => deltas.push(d) },
    );
    expect(response.message).toEqual({ role: 'assistant', content: 'Hello there, traveller.' });
    expect(response.finishReason).toBe('stop');
    expect(response.model).toBe('test-model');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((d) => (d.kind === 'text' ? d.text : '')).join('')).toBe(
      'Hello there, traveller.',
    );
    expect(completionBodies(server?.requests ?? [])[0]).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 50,
      seed: 7,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello?' },
      ],
    });
  });

  it('assembles tool calls from streamed fragments', async () => {
    const { engine } = await setUp({
      script: [
        {
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris', days: 3 }, id: 'call_a' },
            { name: 'get_weather', arguments: { city: 'Oslo' }, id: 'call_b' },
          ],
        },
      ],
    });
    const deltas: ChatDelta[] = [];
    const response = await engine.chat(
      { ...ASK, tools: [WEATHER] },
      { onDelta: (d) => deltas.push(d) },
    );
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris","days":3}' },
      { id: 'call_b', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
    const fragments = deltas.filter((d) => d.kind === 'tool_call' && d.arguments !== undefined);
    expect(fragments.length).toBeGreaterThan(4);
  });

  it('sends tools, tool choice and tool results in the OpenAI wire shape', async () => {
    const { engine } = await setUp({ script: [{ text: 'It is sunny.' }, { text: 'ok' }] });
    await engine.chat({
      model: 'test-model',
      tools: [WEATHER],
      toolChoice: { name: 'get_weather' },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        },
        { role: 'tool', toolCallId: 'call_1', content: '{"sky":"clear"}' },
      ],
    });
    await engine.chat({ ...ASK, tools: [WEATHER], toolChoice: 'required' });
    const [first, second] = completionBodies(server?.requests ?? []);
    expect(first?.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
    ]);
    expect(first?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city.',
          parameters: WEATHER.parameters,
        },
      },
    ]);
    expect(first?.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(second?.tool_choice).toBe('required');
  });

  it('asks for a JSON schema and returns the JSON answer', async () => {
    const { engine } = await setUp();
    const schema = {
      type: 'object',
      properties: { violated: { type: 'boolean' }, turn: { type: 'integer', minimum: 2 } },
      required: ['violated', 'turn'],
    };
    const { response } = await checked(engine, {
      ...ASK,
      responseSchema: { name: 'judge verdict', schema },
    });
    expect(response.json).toEqual({ violated: true, turn: 2 });
    expect(completionBodies(server?.requests ?? [])[0]?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'judge_verdict', schema, strict: false },
    });
  });

  it('passes on that the server sent no usage (NaN counts, which checkedChat estimates)', async () => {
    const { engine } = await setUp({ script: [{ text: 'hi', noUsage: true }] });
    expect((await engine.chat(ASK)).usage).toEqual({
      inputTokens: Number.NaN,
      outputTokens: Number.NaN,
    });
  });

  it('sends the key as a Bearer token, and no Authorization header without one', async () => {
    const { engine } = await setUp({ requireKey: 'sk-right' }, 'sk-right');
    await engine.chat(ASK);
    const keyless = createOpenAIEngine({ baseUrl: server?.url ?? '' });
    expect((await failure(keyless.chat(ASK))).kind).toBe('auth');
    expect(server?.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer sk-right',
      undefined,
    ]);
  });

  it('waits as long as Retry-After asks after a 429, then succeeds', async () => {
    const { engine } = await setUp({ script: [{ status: 429, retryAfter: '1' }, { text: 'ok' }] });
    const started = performance.now();
    const { response, retried } = await checked(engine, ASK);
    expect(response.message.content).toBe('ok');
    expect(retried).toEqual([{ kind: 'rate-limit', delayMs: 1000 }]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500, and a stream cut mid-way or ended before it finished', async () => {
    const { engine } = await setUp({
      script: [
        { status: 500 },
        { text: 'one two three four five', cutAfterChunks: 3 },
        { text: 'one two three four five', endAfterChunks: 3 },
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
    expect(server?.requests[1]?.closedEarly).toBe(true);
  });

  it('ends a hung request at the per-attempt timeout, closing it, then succeeds', async () => {
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
      checkedChat(engine, ASK, {
        runtime: platformRuntime,
        policy: POLICY,
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
    expect(server?.requests).toHaveLength(1);
  });

  it('classifies a wrong key, an unknown model and a too-long conversation', async () => {
    const { engine } = await setUp({
      models: ['test-model'],
      script: [{ status: 401 }, { contextTooLong: true }],
    });
    expect((await failure(checked(engine, ASK))).kind).toBe('auth');
    expect((await failure(checked(engine, ASK))).kind).toBe('context-length');
    const unknown = await failure(checked(engine, { ...ASK, model: 'gpt-9' }));
    expect(unknown.kind).toBe('not-found');
    expect(unknown.message).toContain('"gpt-9"');
    expect(server?.requests).toHaveLength(3);
  });

  it('never lets the API key into an error, even when the server echoes it', async () => {
    const key = 'sk-test-SECRET-0123456789';
    const { engine } = await setUp({ requireKey: 'sk-another' }, key);
    const error = await failure(engine.chat(ASK));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('Incorrect API key provided');
    for (const text of [error.message, String(error), error.stack ?? '', JSON.stringify(error)]) {
      expect(text).not.toContain(key);
    }
  });

  it('repairs malformed tool-call JSON once, and fails on the second bad answer', async () => {
    const bad = { toolCalls: [{ name: 'get_weather', arguments: '{"city": Paris' }] };
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
    const repair = completionBodies(server?.requests ?? [])[1]?.messages?.at(-1);
    expect(repair?.role).toBe('tool');
    expect(repair?.content).toMatch(/invalid/);
    const error = await failure(checked(engine, request));
    expect(error.kind).toBe('malformed-output');
  });

  it('lists the models the server serves', async () => {
    const { engine } = await setUp({ models: ['alpha', 'beta'] });
    expect(await engine.listModels()).toEqual(['alpha', 'beta']);
  });

  it('reports an unreachable server as a network error, or as CORS in a browser', async () => {
    const { engine } = await setUp();
    await server?.close();
    server = undefined;
    expect((await failure(engine.chat(ASK))).kind).toBe('network');
    vi.stubGlobal('document', {});
    vi.stubGlobal('location', { origin: 'http://localhost:5173' });
    const cors = await failure(engine.chat(ASK));
    expect(cors.kind).toBe('cors');
    expect(cors.message).toContain('OLLAMA_ORIGINS=http://localhost:5173 ollama serve');
    expect(cors.message).toContain('Enable CORS');
  });
});
