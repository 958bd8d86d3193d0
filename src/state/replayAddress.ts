/*
 * Where the Replay pane stands, as the page's address says it: `?run=…&dialogue=…&step=…`, so a
 * reload or a bookmark returns to the same step of the same dialogue.
 */

/** A place in the Replay pane as an address can name it. */
export interface ReplayPlace {
  readonly run: string;
  readonly dialogue?: string;
  readonly step?: number;
}

const KEYS = ['run', 'dialogue', 'step'] as const;

/** The place an address names, or null when it names none. A bad step is left out, not guessed. */
export function readReplayPlace(search: string): ReplayPlace | null {
  const params = new URLSearchParams(search);
  const run = params.get('run');
  if (run === null || run.trim() === '') return null;
  const dialogue = params.get('dialogue');
  const step = Number(params.get('step'));
  return {
    run,
    ...(dialogue !== null && dialogue !== '' && { dialogue }),
    ...(params.has('step') && Number.isInteger(step) && step >= 1 && { step: step - 1 }),
  };
}

/**
 * `href` with its replay place set to `place` (or removed, for null); other parts of the address
 * are kept. Steps are counted from 1 in the address, as the pane shows them.
 */
export function withReplayPlace(href: string, place: ReplayPlace | null): string {
  const url = new URL(href);
  for (const key of KEYS) url.searchParams.delete(key);
  if (place) {
    url.searchParams.set('run', place.run);
    if (place.dialogue !== undefined) url.searchParams.set('dialogue', place.dialogue);
    if (place.dialogue !== undefined && place.step !== undefined)
      url.searchParams.set('step', String(place.step + 1));
  }
  return url.toString();
}
