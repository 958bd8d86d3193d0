import type { SimEvent } from '../core/sim/events.ts';
import type { RunPlan } from '../core/sim/run.ts';

// The run's files cross to the simulation worker once, in the plan, and never back: both sides
// of that, apart from the protocol, so the page's client loads no parser with them.

/**
 * An event as it crosses back to the page: `run-started` without the files, which the page sent
 * and puts back (copying 8 MB of text back took the page's thread 200 ms).
 */
export function withoutPlanFiles(event: SimEvent): SimEvent {
  if (event.type !== 'run-started' || !event.files) return event;
  const { files: _files, ...rest } = event;
  return rest;
}

/** The page's side of `withoutPlanFiles`: the run's files, from the plan they came with. */
export function withPlanFiles(event: SimEvent, files: RunPlan['files']): SimEvent {
  return event.type === 'run-started' && files && !event.files ? { ...event, files } : event;
}
