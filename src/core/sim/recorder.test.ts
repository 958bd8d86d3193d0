import { turnUntil } from '../../test/bounded.ts';
import { describe, expect, it } from 'vitest';
import { manualScheduler } from '../../test/manualScheduler.ts';
import type { SimEvent } from './events.ts';
import { createRecorder, runClock } from './recorder.ts';

const ended = (at: number): SimEvent => ({ type: 'run-ended', at, reason: 'done' });

/** A sink whose writes wait for the test; it keeps what landed by position. */
function heldSink() {
  const stored: SimEvent[] = [];
  const waiting: (() => void)[] = [];
  const sink = {
    append: (from: number, events: readonly SimEvent[]) =>
      new Promise<void>((resolve) => {
        waiting.push(() => {
          events.forEach((e, i) => (stored[from + i] = e));
          resolve();
        });
      }),
  };
  return { sink, stored, waiting };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createRecorder', () => {
  it('gathers events for the batch time, then shows and writes them together', async () => {
    const scheduler = manualScheduler();
    const { sink, waiting } = heldSink();
    const shown: number[] = [];
    const recorder = createRecorder({
      sink,
      batchMs: 150,
      scheduler,
      onShow: (events) => shown.push(events.length),
    });
    recorder.emit(ended(1));
    recorder.emit(ended(2));
    scheduler.advance(149);
    await settle();
    expect(shown).toEqual([]);
    expect(waiting).toHaveLength(0);
    scheduler.advance(1);
    await settle();
    expect(shown).toEqual([2]);
    expect(waiting).toHaveLength(1);
  });

  it('writes each batch after the one before has landed, and close waits for the last', async () => {
    const scheduler = manualScheduler();
    const { sink, stored, waiting } = heldSink();
    const recorder = createRecorder({ sink, batchMs: 10, scheduler });
    recorder.emit(ended(1));
    scheduler.advance(10);
    recorder.emit(ended(2));
    scheduler.advance(10);
    await settle();
    expect(waiting).toHaveLength(1);
    let closed = false;
    const closing = recorder.close().then(() => (closed = true));
    waiting.shift()?.();
    await settle();
    expect(waiting).toHaveLength(1);
    expect(closed).toBe(false);
    waiting.shift()?.();
    await closing;
    expect(stored).toEqual([ended(1), ended(2)]);
  });

  it('reports a failed write and still tries the next one', async () => {
    const scheduler = manualScheduler();
    const errors: unknown[] = [];
    const tried: number[] = [];
    const recorder = createRecorder({
      sink: {
        append: (from) => {
          tried.push(from);
          return from === 0 ? Promise.reject(new Error('disk full')) : Promise.resolve();
        },
      },
      batchMs: 0,
      scheduler,
      onSaveError: (error) => errors.push(error),
    });
    recorder.emit(ended(1));
    recorder.emit(ended(2));
    await recorder.close();
    expect(tried).toEqual([0, 1]);
    expect(errors).toEqual([new Error('disk full')]);
  });

  it('waits for the run’s record to be created, and says so when that fails', async () => {
    const errors: unknown[] = [];
    const tried: number[] = [];
    const recorder = createRecorder({
      ready: Promise.reject(new Error('no room')),
      sink: { append: (from) => (tried.push(from), Promise.resolve()) },
      batchMs: 0,
      scheduler: manualScheduler(),
      onSaveError: (error) => errors.push(error),
    });
    recorder.emit(ended(1));
    await recorder.close();
    expect(errors).toEqual([new Error('no room')]);
    expect(tried).toEqual([0]);
  });

  it('goes on after a previous log, and writes it back first when asked to', async () => {
    const { sink, stored, waiting } = heldSink();
    const previous = [ended(1)];
    const recorder = createRecorder({
      previous,
      rewritePrevious: true,
      sink,
      batchMs: 0,
      scheduler: manualScheduler(),
    });
    recorder.emit(ended(2));
    const closing = recorder.close();
    await turnUntil(
      'both events stored',
      () => waiting.length === 0 && stored.length >= 2,
      () => waiting.shift()?.(),
    );
    await closing;
    expect(stored).toEqual([ended(1), ended(2)]);
    expect(recorder.events()).toEqual([ended(1), ended(2)]);
  });
});

describe('runClock', () => {
  it('counts whole milliseconds from its start, going on from a previous log', () => {
    let now = 1000.4;
    const fresh = runClock(() => now);
    const resumed = runClock(() => now, [ended(40), ended(75)]);
    now = 1012.9;
    expect(fresh()).toBe(13);
    expect(resumed()).toBe(88);
  });
});
