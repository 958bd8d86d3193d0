import type { Scheduler } from '../ports.ts';
import type { SimEvent } from './events.ts';

/** Where one run's log is kept: events are appended by position, so a write never reorders. */
export interface LogSink {
  /** Stores `events` at positions `from`, `from + 1`, ...; may reject (a full disk). */
  append(from: number, events: readonly SimEvent[]): Promise<void>;
}

/** How a recorder keeps and shows a growing log. */
export interface RecorderOptions {
  /** The log so far (a resumed run); new events go after it. */
  readonly previous?: readonly SimEvent[];
  /** Set when `previous` was migrated from an older format: it is written back first, whole. */
  readonly rewritePrevious?: boolean;
  readonly sink?: LogSink;
  /** A write that must land before the first append (creating the run's record). */
  readonly ready?: Promise<void>;
  /** Events are gathered this long before being shown and saved together; 0: each at once. */
  readonly batchMs: number;
  readonly scheduler: Scheduler;
  /** Told the whole log each time a batch goes out. */
  readonly onShow?: (events: readonly SimEvent[]) => void;
  /** Told of each failed write; the run goes on, and later writes are still tried. */
  readonly onSaveError?: (error: unknown) => void;
}

/** Takes a run's events as they happen and keeps them: shown and saved in order, in batches. */
export interface RunRecorder {
  /** Give this to the run as its `emit`. */
  readonly emit: (event: SimEvent) => void;
  /** The whole log so far, saved or not. */
  readonly events: () => readonly SimEvent[];
  /**
   * Sends out what is pending and resolves once every write has landed or failed: a run is
   * finished only after this, so nothing is marked done that is not yet saved.
   */
  readonly close: () => Promise<void>;
}

/**
 * Records a run's log: events are appended to the sink in the order they happened (each write
 * waits for the one before, so a slow write never lets a later batch land first), gathered for
 * `batchMs` to keep writes and screen updates few, and a failed write is reported without
 * stopping the run. The page, Play and the CLI all record through one of these.
 */
export function createRecorder(options: RecorderOptions): RunRecorder {
  const log: SimEvent[] = [...(options.previous ?? [])];
  let saved = options.rewritePrevious ? 0 : log.length;
  let writing = (options.ready ?? Promise.resolve()).catch((error: unknown) => {
    options.onSaveError?.(error);
  });
  let timer: unknown;
  let waiting = false;

  const flush = () => {
    options.scheduler.clearTimeout(timer);
    waiting = false;
    const from = saved;
    const fresh = log.slice(from);
    saved = log.length;
    const sink = options.sink;
    if (sink && fresh.length > 0) {
      writing = writing
        .then(() => sink.append(from, fresh))
        .catch((error: unknown) => {
          options.onSaveError?.(error);
        });
    }
    options.onShow?.([...log]);
  };

  return {
    emit: (event) => {
      log.push(event);
      if (options.batchMs <= 0) flush();
      else if (!waiting) {
        waiting = true;
        timer = options.scheduler.setTimeout(flush, options.batchMs);
      }
    },
    events: () => log,
    close: async () => {
      flush();
      await writing;
    },
  };
}

/**
 * The run's clock, in whole milliseconds since it started, from a monotonic `now`: a resumed
 * run's clock goes on from the last moment its log recorded, so its events stay in time order.
 */
export function runClock(now: () => number, previous: readonly SimEvent[] = []): () => number {
  const start = now();
  const offset = previous.reduce((latest, e) => Math.max(latest, e.at), 0);
  return () => offset + Math.round(now() - start);
}
