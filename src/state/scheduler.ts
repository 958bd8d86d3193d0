/**
 * The timers the store waits with (autosave, re-analysis after typing): the platform's in the
 * page, one a test moves by hand, so "after the edits settle" is tested without sleeping.
 */
export interface Scheduler {
  /** Runs `run` once, `ms` milliseconds from now; returns what `clearTimeout` cancels it by. */
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  /** Cancels a run not made yet; a timer already run or cancelled, or undefined, is ignored. */
  readonly clearTimeout: (timer: unknown) => void;
}

/** The platform's `setTimeout` and `clearTimeout`. */
export const platformScheduler: Scheduler = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => {
    clearTimeout(timer as ReturnType<typeof setTimeout> | undefined);
  },
};
