import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cancellation, ChatEngine, ChatResponse } from './chat.ts';
import { ModelError, classifyHttpError, parseRetryAfter } from './errors.ts';
import type { RetryRuntime } from './retry.ts';
import { backoffDelay, withDeadline, withRetries } from './retry.ts';
import { EMPTY_LEDGER, addUsage, callCost } from './usage.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A runtime on a virtual clock: sleeps resolve when the test advances time. */
function virtualRuntime(random = 0.5) {
  let now = 0;
  const sleepers: { at: number; resolve: () => void }[] = [];
  const slept: number[] = [];
  const runtime: RetryRuntime = {
    sleep(ms, signal) {
      slept.push(ms);
      return new Promise((resolve, reject) => {
        const entry = { at: now + ms, resolve };
        sleepers.push(entry);
        signal?.addEventListener('abort', () => {
          sleepers.splice(sleepers.indexOf(entry), 1);
          reject(new Error('aborted'));
        });
      });
    },
    random: () => random,
    controller: () => new AbortController(),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const s of [...sleepers].filter((s) => s.at <= now)) {
      sleepers.splice(sleepers.indexOf(s), 1);
      s.resolve();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { runtime, advance, slept };
}

describe('classifyHttpError', () => {
  it('tells rate limits, auth, unknown models, long contexts and server failures apart', () => {
    const at = { nowMs: NOW };
    const limit = classifyHttpError(429, '{"error":{"message":"slow down"}}', {
      ...at,
      retryAfter: '7',
    });
    expect([limit.kind, limit.retryable, limit.retryAfterMs]).toEqual(['rate-limit', true, 7000]);
    expect(limit.message).toContain('slow down');
    expect(classifyHttpError(401, '', at).kind).toBe('auth');
    expect(classifyHttpError(404, '', { ...at, model: 'qwen9' }).message).toContain('"qwen9"');
    const long = classifyHttpError(400, '{"error":{"code":"context_length_exceeded"}}', at);
    expect([long.kind, long.retryable]).toEqual(['context-length', false]);
    expect(classifyHttpError(503, 'upstream down', at).retryable).toBe(true);
    expect(classifyHttpError(422, 'bad tool schema', at).kind).toBe('bad-request');
  });

  it('reads Retry-After as seconds or a date, and ignores nonsense', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2000);
    expect(parseRetryAfter(new Date(NOW + 3000).toUTCString(), NOW)).toBe(3000);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('99999', NOW)).toBe(600_000);
    fc.assert(
      fc.property(fc.string(), (text) => {
        const ms = parseRetryAfter(text, NOW);
        expect(ms === undefined || (ms >= 0 && ms <= 600_000)).toBe(true);
      }),
    );
  });

  it('blames the model only for its own output', () => {
    expect(new ModelError('malformed-output', 'x').modelFault).toBe(true);
    expect(new ModelError('server', 'x').modelFault).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('grows with full jitter under a cap, and waits at least as long as the provider asks', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, policy, 0.5)).toBe(50);
    expect(backoffDelay(3, policy, 0.99)).toBe(792);
    expect(backoffDelay(10, policy, 0.99)).toBe(990);
    expect(backoffDelay(0, policy, 0.1, 4000)).toBe(4000);
  });
});

describe('withRetries', () => {
  const policy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000, timeoutMs: 5000 };

  it('retries a rate limit after the wait asked for, then succeeds', async () => {
    const { runtime, advance, slept } = virtualRuntime();
    let calls = 0;
    const result = withRetries(
      () => {
        calls++;
        return calls === 1
          ? Promise.reject(new ModelError('rate-limit', '429', { retryAfterMs: 2000 }))
          : Promise.resolve('ok');
      },
      runtime,
      { policy },
    );
    await advance(0);
    await advance(2000);
    await expect(result).resolves.toBe('ok');
    expect(calls).toBe(2);
    expect(slept).toContain(2000);
  });

  it('does not retry what cannot work, and gives up after the last attempt', async () => {
    const { runtime, advance } = virtualRuntime();
    let calls = 0;
    const auth = withRetries(
      () => {
        calls++;
        return Promise.reject(new ModelError('auth', 'bad key'));
      },
      runtime,
      { policy },
    );
    await expect(auth).rejects.toMatchObject({ kind: 'auth' });
    expect(calls).toBe(1);

    calls = 0;
    const failing = withRetries(
      () => {
        calls++;
        return Promise.reject(new ModelError('server', '500'));
      },
      runtime,
      { policy },
    );
    failing.catch(() => undefined);
    for (let i = 0; i < 5; i++) await advance(1000);
    await expect(failing).rejects.toMatchObject({ kind: 'server' });
    expect(calls).toBe(3);
  });

  it('ends a hung attempt at its timeout, cancels it, and tries again', async () => {
    const { runtime, advance } = virtualRuntime();
    const signals: Cancellation[] = [];
    const result = withRetries(
      (signal) => {
        signals.push(signal);
        return signals.length === 1 ? new Promise<string>(() => undefined) : Promise.resolve('ok');
      },
      runtime,
      { policy },
    );
    await advance(5000);
    await advance(1000);
    await expect(result).resolves.toBe('ok');
    expect(signals[0]?.aborted).toBe(true);
  });

  it('stops at once when the caller aborts, and cancels the attempt', async () => {
    const { runtime, advance } = virtualRuntime();
    const outer = new AbortController();
    let inner: Cancellation | undefined;
    const result = withRetries(
      (signal) => {
        inner = signal;
        return new Promise<string>(() => undefined);
      },
      runtime,
      { policy, signal: outer.signal },
    );
    await advance(10);
    outer.abort();
    await expect(result).rejects.toMatchObject({ kind: 'aborted' });
    expect(inner?.aborted).toBe(true);
  });
});

describe('withDeadline', () => {
  const answer: ChatResponse = {
    message: { role: 'assistant', content: 'hi' },
    finishReason: 'stop',
    usage: { inputTokens: 1, outputTokens: 1 },
    model: 'm',
  };

  it('ends a call that outlives its own limit with a timeout, cancelling it', async () => {
    const { runtime, advance } = virtualRuntime();
    let inner: Cancellation | undefined;
    const hung: ChatEngine = {
      chat: (_, options) => {
        inner = options?.signal;
        return new Promise(() => undefined);
      },
    };
    const call = withDeadline(hung, 2000, runtime).chat({ model: 'm', messages: [] });
    const outcome = call.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await advance(1999);
    expect(inner?.aborted).toBe(false);
    await advance(1);
    expect(await outcome).toMatchObject({ kind: 'timeout', message: 'No answer within 2 s.' });
    expect(inner?.aborted).toBe(true);
  });

  it('passes a timely answer through, and the caller’s cancel down', async () => {
    const { runtime, advance } = virtualRuntime();
    const quick: ChatEngine = { chat: () => Promise.resolve(answer) };
    await expect(
      withDeadline(quick, 2000, runtime).chat({ model: 'm', messages: [] }),
    ).resolves.toBe(answer);
    const outer = new AbortController();
    let inner: Cancellation | undefined;
    const waiting: ChatEngine = {
      chat: (_, options) => {
        inner = options?.signal;
        return new Promise(() => undefined);
      },
    };
    const call = withDeadline(waiting, 2000, runtime).chat(
      { model: 'm', messages: [] },
      { signal: outer.signal },
    );
    await advance(10);
    outer.abort();
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    expect(inner?.aborted).toBe(true);
  });
});

describe('usage and cost', () => {
  const prices = { 'gpt-x': { inputPerMillion: 2, outputPerMillion: 8 } };

  it('adds tokens and dollars per role, and marks the total unknown for an unpriced model', () => {
    let ledger = addUsage(
      EMPTY_LEDGER,
      'agent',
      'gpt-x',
      { inputTokens: 1000, outputTokens: 500 },
      prices,
    );
    ledger = addUsage(ledger, 'judge', 'gpt-x', { inputTokens: 2000, outputTokens: 0 }, prices);
    expect(ledger.cost).toBeCloseTo(0.01);
    expect(ledger.byRole.agent?.cost).toBeCloseTo(0.006);
    expect(ledger.calls).toBe(2);
    ledger = addUsage(ledger, 'user', 'mystery', { inputTokens: 10, outputTokens: 10 }, prices);
    expect(ledger.cost).toBeNull();
    expect(ledger.unpriced).toEqual(['mystery']);
    expect(ledger.byRole.agent?.cost).toBeCloseTo(0.006);
    expect(callCost('__proto__', { inputTokens: 1, outputTokens: 1 }, prices)).toBeNull();
  });
});
