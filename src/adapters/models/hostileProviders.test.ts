import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelError } from '../../core/index.ts';
import { DEFAULT_RETRY, checkedChat, isTokenCount } from '../../core/index.ts';
import type { ServerOptions, TestServer } from '../../test/servers/http.ts';
import { startAnthropicServer } from '../../test/servers/anthropicServer.ts';
import { startOpenAIServer } from '../../test/servers/openaiServer.ts';
import { ANTHROPIC_USAGE, ENDLESS_STREAM, OPENAI_USAGE } from '../../test/hostile/providers.ts';
import { createAnthropicEngine } from './anthropicEngine.ts';
import { MAX_ANSWER_CHARS } from './answerCap.ts';
import { createOpenAIEngine } from './openaiEngine.ts';
import { platformRuntime } from './runtime.ts';

/*
 * Providers that lie about what a call cost, or never stop answering, through both real engines
 * against test servers: the counts that come out of a checked call are always whole numbers of
 * at least zero, and an endless answer is cut with a clear ending.
 */

const ASK: ChatRequest = {
  model: 'test-model',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Hello?' },
  ],
  maxTokens: 300,
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ENGINES = {
  openai: async (options: ServerOptions) => {
    server = await startOpenAIServer(options);
    return createOpenAIEngine({ baseUrl: server.url });
  },
  anthropic: async (options: ServerOptions) => {
    server = await startAnthropicServer(options);
    return createAnthropicEngine({ baseUrl: server.url, apiKey: 'sk-test' });
  },
};

const call = async (engine: Awaited<ReturnType<typeof ENGINES.openai>>) =>
  (
    await checkedChat(engine, ASK, {
      runtime: platformRuntime,
      policy: { ...DEFAULT_RETRY, attempts: 1 },
    })
  ).usage;

/** The hostile usage each protocol is sent, by what it attacks (see src/test/hostile). */
const HOSTILE = { openai: OPENAI_USAGE, anthropic: ANTHROPIC_USAGE } as const;

describe.each(['openai', 'anthropic'] as const)('a hostile %s provider', (protocol) => {
  it.each(Object.keys(HOSTILE[protocol]))(
    'with %s: the counts are estimated, whole and at least zero, and say why',
    async (attack) => {
      const usage = HOSTILE[protocol][attack as keyof (typeof HOSTILE)[typeof protocol]];
      const engine = await ENGINES[protocol]({ script: [{ text: 'Hi there.', usage }] });
      const counted = await call(engine);
      expect(isTokenCount(counted.inputTokens) && isTokenCount(counted.outputTokens)).toBe(true);
      expect(counted.outputTokens).toBeLessThanOrEqual(ASK.maxTokens ?? 0);
      expect(counted.estimated).toMatch(/^The provider reported/);
      // 'Hi there.' is nine characters: three tokens at four characters a token.
      expect(counted.outputTokens).toBe(3);
    },
  );

  it('with no usage at all: the counts are estimated from characters', async () => {
    const engine = await ENGINES[protocol]({ script: [{ text: 'Hi there.', noUsage: true }] });
    const counted = await call(engine);
    expect(counted.outputTokens).toBe(3);
    expect(counted.estimated).toMatch(/^The provider reported no token counts/);
    expect(counted.inputTokens).toBeGreaterThan(0);
  });

  it('with true counts: they are taken as they are', async () => {
    const engine = await ENGINES[protocol]({ script: [{ text: 'Hi there.' }] });
    const counted = await call(engine);
    expect(counted.estimated).toBeUndefined();
    expect(counted.outputTokens).toBeGreaterThan(0);
  });
});

describe('an endless stream', () => {
  it('is cut at the answer cap with a clear, unretried provider error and estimated tokens', async () => {
    const engine = await ENGINES.openai({
      script: [{ ...ENDLESS_STREAM, chunkDelayMs: 0 }],
    });
    const error = await engine.chat(ASK).then(
      () => expect.fail('an endless answer must not end well'),
      (thrown: unknown) => thrown as ModelError,
    );
    expect(error.kind).toBe('too-long');
    expect(error.retryable).toBe(false);
    expect(error.modelFault).toBe(false);
    expect(error.message).toContain('cut at 200,000 characters');
    expect(error.usage?.estimated).toContain('cut at 200,000 characters');
    // At most one chunk past the cap was read.
    const out = error.usage?.outputTokens ?? 0;
    expect(out).toBeGreaterThan(MAX_ANSWER_CHARS / 4);
    expect(out).toBeLessThanOrEqual((MAX_ANSWER_CHARS + 1024) / 4 + 1);
  });
});
