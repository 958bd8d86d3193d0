import type { LayoutInput, LayoutResult } from '../core/graph/layout.ts';
import { layoutGraph } from '../core/graph/layout.ts';

/** Asks the layout worker to lay a graph out. Plain data (Maps included) crosses as is. */
export interface LayoutRequest {
  readonly id: number;
  readonly input: LayoutInput;
  readonly seed: number;
}

/** What the layout worker says about a request: progress (throttled), then a result or error. */
export type LayoutResponse =
  | {
      readonly id: number;
      readonly type: 'progress';
      readonly done: number;
      readonly total: number;
    }
  | { readonly id: number; readonly type: 'done'; readonly result: LayoutResult }
  | { readonly id: number; readonly type: 'error'; readonly error: string };

/** Progress is posted at most this often (plus the final step), so messages never pile up. */
export const PROGRESS_EVERY_MS = 50;

/**
 * Runs one request and posts its messages: what the worker does with each message it gets, kept
 * here so a Node worker (the benchmark) and tests run exactly the same steps. Cancelling is by
 * terminating the worker: a running layout keeps its thread busy, so it cannot read a message.
 */
export function answerLayoutRequest(
  request: LayoutRequest,
  post: (response: LayoutResponse) => void,
  now: () => number = () => performance.now(),
): void {
  const { id, input, seed } = request;
  let last = Number.NEGATIVE_INFINITY;
  try {
    const result = layoutGraph(input, {
      seed,
      onProgress: (done, total) => {
        const time = now();
        if (done < total && time - last < PROGRESS_EVERY_MS) return;
        last = time;
        post({ id, type: 'progress', done, total });
      },
    });
    post({ id, type: 'done', result });
  } catch (error) {
    post({ id, type: 'error', error: error instanceof Error ? error.message : String(error) });
  }
}
