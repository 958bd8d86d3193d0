/** A worker's answer to one request: its id, and either what it found or why it could not. */
type Reply = { readonly id: number } & (
  { readonly ok: true } | { readonly ok: false; readonly error: string }
);

/**
 * Requests to a worker, each answered by its id. The worker is made on the first request; one
 * that crashes rejects every request waiting, saying `who` stopped, and the next request makes a
 * fresh one. `send` throws, before any promise, where no worker can be made, so that a caller can
 * answer on its own thread instead.
 */
export function workerReplies<Response extends Reply, Answer>(
  makeWorker: () => Worker,
  who: string,
  answerOf: (reply: Extract<Response, { ok: true }>) => Answer,
) {
  let worker: Worker | undefined;
  const pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

  /** Ends the worker, if any, and rejects what waits with `reason`. */
  const end = (reason: Error) => {
    worker?.terminate();
    worker = undefined;
    for (const waiting of pending.values()) waiting.reject(reason);
    pending.clear();
  };

  const start = () => {
    const w = makeWorker();
    w.onmessage = (event: MessageEvent<Response>) => {
      const reply = event.data;
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiting) return;
      if (reply.ok) waiting.resolve(answerOf(reply as Extract<Response, { ok: true }>));
      else waiting.reject(new Error(reply.error));
    };
    w.onerror = (event) => {
      event.preventDefault();
      end(new Error(`${who} stopped: ${event.message}`));
    };
    return w;
  };

  return {
    end,
    /** How many requests wait for their answer. */
    waiting: () => pending.size,
    send(request: { readonly id: number }): Promise<Answer> {
      const w = (worker ??= start());
      return new Promise<Answer>((resolve, reject) => {
        pending.set(request.id, { resolve, reject });
        w.postMessage(request);
      });
    },
  };
}
