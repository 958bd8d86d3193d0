import type { LayoutInput, LayoutResult } from '../core/graph/layout.ts';
import type { LayoutRequest, LayoutResponse } from './layoutProtocol.ts';

/** How to run one layout. */
export interface LayoutRunOptions {
  readonly seed: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** Aborting rejects the layout with a LayoutCancelled error and stops the work. */
  readonly signal?: AbortSignal;
}

/** Lays graphs out, one at a time. */
export interface LayoutClient {
  /** Resolves with the layout; rejects with LayoutCancelled when aborted or superseded. */
  layout(input: LayoutInput, options: LayoutRunOptions): Promise<LayoutResult>;
  /** Stops any running layout and the worker. */
  dispose(): void;
}

/** Error for a layout that was aborted, or replaced by a newer one before it finished. */
export class LayoutCancelled extends Error {
  constructor(reason: 'aborted' | 'superseded') {
    super(
      reason === 'aborted'
        ? 'The layout was cancelled.'
        : 'A newer layout replaced this one before it finished.',
    );
    this.name = 'AbortError';
  }
}

const defaultWorker = () =>
  new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });

interface Running {
  readonly id: number;
  readonly resolve: (result: LayoutResult) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  readonly release: () => void;
}

/**
 * Lays graphs out in a Web Worker. One layout runs at a time: a new one supersedes the running
 * one, and cancelling terminates the worker (a running layout cannot read messages), so the
 * next layout starts a fresh worker. A worker that crashes is replaced the same way. Where
 * workers cannot be made, layouts run on the calling thread.
 */
export function createLayoutClient(createWorker: () => Worker = defaultWorker): LayoutClient {
  let worker: Worker | undefined;
  let running: Running | undefined;
  let lastId = 0;

  const stopWorker = () => {
    worker?.terminate();
    worker = undefined;
  };

  const settle = (error?: Error) => {
    const current = running;
    running = undefined;
    current?.release();
    if (error) current?.reject(error);
    return current;
  };

  const start = (): Worker => {
    const w = createWorker();
    w.onmessage = (event: MessageEvent<LayoutResponse>) => {
      const message = event.data;
      if (w !== worker || message.id !== running?.id) return;
      if (message.type === 'progress') running.onProgress?.(message.done, message.total);
      else if (message.type === 'done') settle()?.resolve(message.result);
      else settle(new Error(`The layout failed: ${message.error}`));
    };
    w.onerror = (event) => {
      event.preventDefault();
      if (w !== worker) return;
      stopWorker();
      settle(new Error(`The layout worker stopped: ${event.message || 'unknown error'}`));
    };
    return w;
  };

  return {
    layout(input, { seed, onProgress, signal }) {
      if (running) {
        // The worker is busy with the old layout and cannot be interrupted: replace it.
        stopWorker();
        settle(new LayoutCancelled('superseded'));
      }
      if (signal?.aborted) return Promise.reject(new LayoutCancelled('aborted'));
      try {
        worker ??= start();
      } catch {
        return layoutInThread(input, {
          seed,
          ...(onProgress ? { onProgress } : {}),
          ...(signal ? { signal } : {}),
        });
      }
      const id = ++lastId;
      const target = worker;
      return new Promise<LayoutResult>((resolve, reject) => {
        const abort = () => {
          if (running?.id !== id) return;
          stopWorker();
          settle(new LayoutCancelled('aborted'));
        };
        signal?.addEventListener('abort', abort, { once: true });
        running = {
          id,
          resolve,
          reject,
          onProgress,
          release: () => signal?.removeEventListener('abort', abort),
        };
        const request: LayoutRequest = { id, input, seed };
        try {
          target.postMessage(request);
        } catch (error) {
          // Input that cannot be copied to the worker (a function, say): say so, keep the worker.
          settle(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    dispose() {
      stopWorker();
      settle(new LayoutCancelled('aborted'));
    },
  };
}

/**
 * Lays a graph out on the calling thread: for tests and where workers are unavailable. The
 * layout code loads only when first needed, as the worker's does. It blocks while it runs; an
 * abort seen before or during the run (from onProgress) cancels it.
 */
export async function layoutInThread(
  input: LayoutInput,
  options: LayoutRunOptions,
): Promise<LayoutResult> {
  const { seed, onProgress, signal } = options;
  const { layoutGraph } = await import('../core/graph/layout.ts');
  if (signal?.aborted) throw new LayoutCancelled('aborted');
  const result = layoutGraph(input, {
    seed,
    ...(onProgress ? { onProgress } : {}),
    shouldStop: () => signal?.aborted === true,
  });
  if (result.stopped) throw new LayoutCancelled('aborted');
  return result;
}
