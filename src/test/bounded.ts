import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Waits, a turn of the event loop at a time, until `done()` holds, doing `step()` before each
 * look; fails naming `what` after `rounds` turns instead of spinning for ever. Every loop in a test
 * that waits on something else goes through here, so a broken promise chain is a named failure
 * on a busy machine too, not a hung suite.
 */
export async function turnUntil(
  what: string,
  done: () => boolean,
  step: () => void = () => undefined,
  rounds = 100_000,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if (done()) return;
    step();
    await nextTurn();
  }
  if (!done()) throw new Error(`still waiting for ${what} after ${rounds} turns of the event loop`);
}

/**
 * The CPU time `work` takes, in milliseconds, with its result. A test that holds work to a size
 * reads this rather than the wall clock: other processes on a busy machine stretch the wall
 * clock tenfold and leave this one nearly as it is.
 */
export function cpuMs<T>(work: () => T): { ms: number; value: T } {
  const before = process.cpuUsage();
  const value = work();
  const spent = process.cpuUsage(before);
  return { ms: (spent.user + spent.system) / 1000, value };
}

/**
 * Resolves once `holds(state)` is true of a zustand store, now or after a later change. A wait on
 * a promise, never a spin: the test's own time limit ends it if the state never comes.
 */
export function storeReaches<S>(
  store: { getState: () => S; subscribe: (listener: (state: S) => void) => () => void },
  holds: (state: S) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    if (holds(store.getState())) {
      resolve();
      return;
    }
    const stop = store.subscribe((state) => {
      if (!holds(state)) return;
      stop();
      resolve();
    });
  });
}
