import type { RetryRuntime } from '../../core/index.ts';

/** The real timers, randomness and abort controllers that core's retry logic is given. */
export const platformRuntime: RetryRuntime = {
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new Error('aborted'));
        return;
      }
      const stop = () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', stop);
        resolve();
      }, ms);
      signal?.addEventListener('abort', stop, { once: true });
    });
  },
  random: () => Math.random(),
  controller: () => new AbortController(),
};

/** Milliseconds on a monotonic clock, for latencies. */
export const monotonicClock = (): number => performance.now();
