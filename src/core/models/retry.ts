import type { Cancellation, ChatEngine } from './chat.ts';
import { ModelError } from './errors.ts';

/** What retrying needs from the outside world (timers and randomness stay out of core). */
export interface RetryRuntime {
  /** Waits `ms`; rejects (or resolves early) when `signal` aborts. */
  sleep(ms: number, signal?: Cancellation): Promise<void>;
  /** A number in [0, 1), for jitter. */
  random(): number;
  /** A fresh cancellation the caller can trigger, for stopping one attempt. */
  controller(): { readonly signal: Cancellation; abort(reason?: unknown): void };
}

/** How hard to try. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** The first backoff; each later one doubles, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Each attempt is abandoned (and counts as a timeout) after this long. */
  readonly timeoutMs: number;
}

/** Sensible defaults for remote endpoints. */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  timeoutMs: 120_000,
};

/**
 * The wait before attempt `attempt + 1` (attempt counts from 0): "full jitter" exponential
 * backoff, a random time up to base·2^attempt (capped), so many clients do not retry in step.
 * A provider's Retry-After wins when it asks for longer.
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: number,
  retryAfterMs?: number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = Math.floor(random * ceiling);
  return retryAfterMs === undefined ? jittered : Math.max(jittered, retryAfterMs);
}

/**
 * Runs `call` until it succeeds, retrying retryable ModelErrors with backoff. Each attempt gets
 * its own cancellation, triggered when it times out or when `signal` aborts, so a stopped call
 * really stops. Anything thrown that is not a ModelError is a bug and is rethrown at once.
 * @param onRetry told before each wait, e.g. to show "rate-limited, retrying in 4 s".
 */
export async function withRetries<T>(
  call: (signal: Cancellation, attempt: number) => Promise<T>,
  runtime: RetryRuntime,
  options: {
    policy?: RetryPolicy;
    signal?: Cancellation;
    onRetry?: (error: ModelError, attempt: number, delayMs: number) => void;
  } = {},
): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY;
  const outer = options.signal;
  for (let attempt = 0; ; attempt++) {
    if (outer?.aborted) throw new ModelError('aborted', 'The call was stopped.');
    let error: ModelError;
    try {
      return await attemptOnce(call, runtime, policy.timeoutMs, attempt, outer);
    } catch (thrown) {
      if (!(thrown instanceof ModelError)) throw thrown;
      error = thrown;
    }
    if (!error.retryable || attempt + 1 >= policy.attempts || outer?.aborted) throw error;
    const delay = backoffDelay(attempt, policy, runtime.random(), error.retryAfterMs);
    options.onRetry?.(error, attempt, delay);
    await runtime.sleep(delay, outer);
  }
}

/**
 * The engine with its own time limit per call, raced as a retry attempt is (a `timeout` error,
 * which retries may try again). For runs whose retry policy allows long waits for another player
 * (a person in play mode) while a model's call should still end on time.
 */
export function withDeadline(engine: ChatEngine, ms: number, runtime: RetryRuntime): ChatEngine {
  return {
    chat: (request, options) =>
      attemptOnce(
        (signal) => engine.chat(request, { ...options, signal }),
        runtime,
        ms,
        0,
        options?.signal,
      ),
  };
}

/**
 * One attempt, raced against its timeout and the caller's cancellation: a request that ignores
 * its signal (a hung connection) still ends the attempt on time.
 */
async function attemptOnce<T>(
  call: (signal: Cancellation, attempt: number) => Promise<T>,
  runtime: RetryRuntime,
  timeoutMs: number,
  attempt: number,
  outer: Cancellation | undefined,
): Promise<T> {
  const own = runtime.controller();
  const timer = runtime.controller();
  let end: (error: ModelError) => void = () => undefined;
  const ended = new Promise<never>((_, reject) => {
    end = reject;
  });
  const stop = () => {
    own.abort(outer?.reason);
    end(new ModelError('aborted', 'The call was stopped.'));
  };
  outer?.addEventListener('abort', stop, { once: true });
  void runtime.sleep(timeoutMs, timer.signal).then(
    () => {
      if (timer.signal.aborted) return;
      own.abort('timeout');
      end(new ModelError('timeout', `No answer within ${Math.round(timeoutMs / 1000)} s.`));
    },
    () => undefined,
  );
  try {
    return await Promise.race([call(own.signal, attempt), ended]);
  } finally {
    outer?.removeEventListener('abort', stop);
    timer.abort();
  }
}
