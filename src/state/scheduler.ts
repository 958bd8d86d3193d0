import type { Scheduler } from '../core/index.ts';

export type { Scheduler } from '../core/index.ts';

/** The platform's `setTimeout` and `clearTimeout`: the store's timers in the page. */
export const platformScheduler: Scheduler = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => {
    clearTimeout(timer as ReturnType<typeof setTimeout> | undefined);
  },
};
