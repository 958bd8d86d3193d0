import type { SimEvent } from './events.ts';

/*
 * A simulation that stopped answering (a guard or check computing without end) is ended from
 * outside: the page terminates its worker, the CLI its thread. What the worker could no longer
 * write is written here, so the log still tells what happened: each dialogue it was in is ended
 * with why, and judged by nothing (an ending that is an error whatever the findings).
 */

/** Dialogues that started and have not ended, each with when it started, as events arrive. */
export class InFlightDialogues {
  private readonly started = new Map<string, number>();

  /** Takes in the next event of the run. */
  observe(event: SimEvent): void {
    if (event.type === 'dialogue-started') this.started.set(event.dialogue, event.at);
    else if (event.type === 'dialogue-ended') this.started.delete(event.dialogue);
  }

  /** Whether `dialogue` has started and not ended. */
  has(dialogue: string): boolean {
    return this.started.has(dialogue);
  }

  /** The dialogues in flight, in the order they started. */
  list(): string[] {
    return [...this.started.keys()];
  }
}

/** Why a stuck simulation was ended from outside. */
export type StuckEnding = 'cancelled' | 'time-limit';

const DETAILS: Record<StuckEnding, string> = {
  cancelled:
    'Stopped. The simulation was busy (a guard rule or a check still computing) and did not answer the Stop, so it was ended.',
  'time-limit':
    'The dialogue ran past its time limit while a guard rule or a check was still computing, so the simulation was ended.',
};

/**
 * The events that end `dialogues` of a simulation ended from outside at `at`: each one's
 * `dialogue-ended` with the reason, and an empty `checks` (nothing could judge it), so the run's
 * report counts it as an error and a resumed run does not start it again.
 */
export function endStuckDialogues(
  dialogues: readonly string[],
  reason: StuckEnding,
  at: number,
): SimEvent[] {
  return dialogues.flatMap((dialogue): SimEvent[] => [
    { type: 'dialogue-ended', at, dialogue, reason, detail: DETAILS[reason] },
    { type: 'checks', at, dialogue, findings: [] },
  ]);
}
