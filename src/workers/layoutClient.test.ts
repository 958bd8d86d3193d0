import { describe, expect, it, vi } from 'vitest';
import type { LayoutInput } from '../core/graph/layout.ts';
import { LayoutCancelled, createLayoutClient, layoutInThread } from './layoutClient.ts';
import type { LayoutRequest, LayoutResponse } from './layoutProtocol.ts';
import { answerLayoutRequest } from './layoutProtocol.ts';

const input: LayoutInput = {
  nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, radius: 10 })),
  edges: [
    { source: 'a', target: 'b', weight: 9 },
    { source: 'b', target: 'c', weight: 2 },
  ],
  pinned: new Map([['d', { x: 40, y: 50 }]]),
};

/** A stand-in for a Web Worker: records what it is sent; the test answers for it. */
class FakeWorker {
  onmessage: ((event: { data: LayoutResponse }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  readonly requests: LayoutRequest[] = [];
  terminated = false;

  postMessage(request: LayoutRequest) {
    // Messages are copied across threads: so are they here.
    this.requests.push(structuredClone(request));
  }
  terminate() {
    this.terminated = true;
  }
  /** Runs the last request as the real worker does, posting its messages (copied) back. */
  answer(now: () => number = () => 0) {
    const request = this.requests.at(-1);
    if (!request) throw new Error('nothing was asked');
    answerLayoutRequest(
      request,
      (response) => this.onmessage?.({ data: structuredClone(response) }),
      now,
    );
  }
  crash(message: string) {
    this.onerror?.({ message, preventDefault: () => undefined });
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const client = createLayoutClient(() => {
    const worker = new FakeWorker();
    workers.push(worker);
    return worker as unknown as Worker;
  });
  return { client, workers };
}

describe('createLayoutClient', () => {
  it('lays a graph out in the worker and reports throttled progress', async () => {
    const { client, workers } = setup();
    const progress: [number, number][] = [];
    const pending = client.layout(input, {
      seed: 4,
      onProgress: (done, total) => progress.push([done, total]),
    });
    let clock = 0;
    // Each step takes 1 ms: progress goes out about every 50 steps, and at the end.
    workers[0]?.answer(() => clock++);
    const result = await pending;
    expect(result).toEqual(expectedLayout());
    expect(result.positions.get('d')).toEqual({ x: 40, y: 50 });
    const total = progress[0]?.[1] ?? 0;
    expect(total).toBeGreaterThan(100);
    expect(progress.length).toBeLessThan(total / 20);
    expect(progress.at(-1)).toEqual([total, total]);
    expect(workers[0]?.requests[0]?.seed).toBe(4);
  });

  it('keeps the worker between layouts', async () => {
    const { client, workers } = setup();
    const first = client.layout(input, { seed: 1 });
    workers[0]?.answer();
    await first;
    const second = client.layout(input, { seed: 2 });
    workers[0]?.answer();
    await second;
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(false);
  });

  it('cancels the running layout when a newer one starts, stopping its worker', async () => {
    const { client, workers } = setup();
    const old = client.layout(input, { seed: 1 });
    const newer = client.layout(input, { seed: 2 });
    await expect(old).rejects.toBeInstanceOf(LayoutCancelled);
    expect(workers[0]?.terminated).toBe(true);
    workers[1]?.answer();
    await expect(newer).resolves.toMatchObject({ stopped: false });
  });

  it('ignores whatever a replaced worker still says', async () => {
    const { client, workers } = setup();
    const old = client.layout(input, { seed: 1 });
    const onProgress = vi.fn();
    const newer = client.layout(input, { seed: 2, onProgress });
    await expect(old).rejects.toThrow(/newer layout/);
    workers[0]?.answer();
    expect(onProgress).not.toHaveBeenCalled();
    workers[1]?.answer();
    expect((await newer).positions.size).toBe(4);
  });

  it('stops on abort: rejects and terminates the worker; the next layout gets a new one', async () => {
    const { client, workers } = setup();
    const controller = new AbortController();
    const pending = client.layout(input, { seed: 1, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]?.terminated).toBe(true);
    const next = client.layout(input, { seed: 1 });
    workers[1]?.answer();
    await expect(next).resolves.toMatchObject({ stopped: false });
  });

  it('rejects an already aborted request without asking the worker', async () => {
    const { client, workers } = setup();
    await expect(
      client.layout(input, { seed: 1, signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(LayoutCancelled);
    expect(workers.flatMap((w) => w.requests)).toEqual([]);
  });

  it('reports a crashed worker and replaces it', async () => {
    const { client, workers } = setup();
    const pending = client.layout(input, { seed: 1 });
    workers[0]?.crash('out of memory');
    await expect(pending).rejects.toThrow('The layout worker stopped: out of memory');
    const next = client.layout(input, { seed: 1 });
    workers[1]?.answer();
    await expect(next).resolves.toMatchObject({ stopped: false });
  });

  it('passes on an error the layout raised', async () => {
    const { client, workers } = setup();
    const pending = client.layout(input, { seed: 1 });
    workers[0]?.onmessage?.({ data: { id: 1, type: 'error', error: 'bad graph' } });
    await expect(pending).rejects.toThrow('The layout failed: bad graph');
  });

  it('rejects input the worker cannot be sent, and keeps the worker', async () => {
    const { client, workers } = setup();
    const sending = client.layout(input, { seed: 1 });
    workers[0]?.answer();
    await sending;
    const bad: LayoutInput = {
      ...input,
      nodes: [Object.assign({ id: 'a', radius: 1 }, { extra: () => 1 })],
    };
    await expect(client.layout(bad, { seed: 1 })).rejects.toThrow();
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(false);
  });

  it('lays out on this thread where workers cannot be made', async () => {
    const client = createLayoutClient(() => {
      throw new Error('Workers are not supported here.');
    });
    expect(await client.layout(input, { seed: 4 })).toEqual(expectedLayout());
  });

  it('rejects the running layout on dispose', async () => {
    const { client, workers } = setup();
    const pending = client.layout(input, { seed: 1 });
    client.dispose();
    await expect(pending).rejects.toBeInstanceOf(LayoutCancelled);
    expect(workers[0]?.terminated).toBe(true);
  });
});

describe('layoutInThread', () => {
  it('rejects when aborted during the run', async () => {
    const controller = new AbortController();
    const run = layoutInThread(input, {
      seed: 1,
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 10) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(LayoutCancelled);
  });
});

/** The in-thread answer the worker's must equal. */
function expectedLayout() {
  let result: unknown;
  answerLayoutRequest({ id: 0, input, seed: 4 }, (response) => {
    if (response.type === 'done') result = response.result;
  });
  return result;
}
