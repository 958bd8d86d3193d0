import type { Scheduler } from '../state/scheduler.ts';

/** A scheduler whose clock moves only when the test says: no timer runs until `advance`. */
export interface ManualScheduler extends Scheduler {
  /** Moves the clock on by `ms`, running each timer that falls due on the way, soonest first. */
  advance(ms: number): void;
  /** How many timers are set and have neither run nor been cancelled. */
  readonly pending: number;
}

interface Timer {
  readonly at: number;
  readonly run: () => void;
}

/** A fresh manual scheduler, its clock at 0. */
export function manualScheduler(): ManualScheduler {
  let now = 0;
  let lastId = 0;
  const timers = new Map<number, Timer>();
  /** The soonest timer due by `until`; of two due at once, the one set first (as browsers do). */
  const soonest = (until: number) => {
    let found: [number, Timer] | undefined;
    for (const [id, timer] of timers) {
      if (timer.at <= until && (!found || timer.at < found[1].at)) found = [id, timer];
    }
    return found;
  };
  return {
    setTimeout: (run, ms) => {
      timers.set(++lastId, { at: now + Math.max(0, ms), run });
      return lastId;
    },
    clearTimeout: (timer) => {
      if (typeof timer === 'number') timers.delete(timer);
    },
    advance(ms) {
      const until = now + ms;
      for (let next = soonest(until); next; next = soonest(until)) {
        const [id, timer] = next;
        timers.delete(id);
        now = timer.at;
        timer.run();
      }
      now = until;
    },
    get pending() {
      return timers.size;
    },
  };
}
