import type { Check, Finding, SimEvent, Transcript } from '../core/index.ts';
import { attemptFindings, groundsOf, runChecks, transcriptOf } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import type { PlaySession } from './slices/playSlice.ts';
import { perStore } from './perStore.ts';

/**
 * A finding as play shows it: broken, kept, a refused attempt only noted, or (while the game goes
 * on) not decided yet.
 */
export interface LiveFinding extends Finding {
  readonly state: 'broken' | 'kept' | 'open' | 'ungraded' | 'noted';
  /**
   * Guard rule or tool precondition at a call, transcript check of rules.yaml, or the scenario's
   * expectation.
   */
  readonly source: 'guard' | 'precondition' | 'check' | 'expected';
}

/** The game's dialogue and what the deterministic judges make of it so far. */
export interface PlayView {
  readonly transcript: Transcript;
  readonly findings: readonly LiveFinding[];
  /** True once the dialogue was judged as a whole (its `checks` event is in the log). */
  readonly final: boolean;
}

/** Checks that a later turn can still satisfy: failing them mid-game says nothing yet. */
const UNTIL_THE_END: ReadonlySet<Check['kind']> = new Set(['must_say']);

/** Play's memoised selector, made once per store (`playSelectors(store)`). */
export function createPlaySelectors() {
  let lastEvents: readonly SimEvent[] | undefined;
  let lastView: PlayView | null = null;

  /**
   * The dialogue of the game on screen with its findings: live, the guard refusals and the
   * transcript checks over the dialogue as it stands (a `must_say` not said yet is open, not
   * broken); once judged, the findings of the log's `checks` event (expectations included).
   */
  function selectPlayView(state: AppState): PlayView | null {
    const play = state.play;
    if (!play) return null;
    if (play.events === lastEvents && lastView) return lastView;
    lastEvents = play.events;
    lastView = playView(play);
    return lastView;
  }

  return { selectPlayView };
}

function playView(play: PlaySession): PlayView {
  const dialogue = `${play.scenario.id}#1`;
  const transcript = transcriptOf(play.events, dialogue);
  const guards: LiveFinding[] = attemptFindings(transcript).map((f) => ({
    ...f,
    state: f.noted ? 'noted' : 'broken',
    source: f.id.includes('.requires[') ? 'precondition' : 'guard',
  }));
  const judged = play.events.find(
    (e): e is Extract<SimEvent, { type: 'checks' }> =>
      e.type === 'checks' && e.dialogue === dialogue,
  );
  if (judged) {
    const checkIds = new Set(play.checks.map((c) => c.id));
    return {
      transcript,
      final: true,
      findings: [
        ...guards,
        ...judged.findings.map((f): LiveFinding => ({
          ...f,
          state: f.passed ? 'kept' : f.unclear ? 'open' : f.ungraded ? 'ungraded' : 'broken',
          source: checkIds.has(f.id) ? 'check' : 'expected',
        })),
      ],
    };
  }
  const kinds = new Map(play.checks.map((c) => [c.id, c.kind]));
  return {
    transcript,
    final: false,
    findings: [
      ...guards,
      ...runChecks(play.checks, transcript, groundsOf(play.prompt, play.scenario)).map(
        (f): LiveFinding => {
          const kind = kinds.get(f.id);
          const open =
            !f.passed && (f.unclear === true || (kind !== undefined && UNTIL_THE_END.has(kind)));
          return { ...f, state: f.passed ? 'kept' : open ? 'open' : 'broken', source: 'check' };
        },
      ),
    ],
  };
}

/** This store's play selectors: `playSelectors(store).select...`. */
export const playSelectors = perStore(createPlaySelectors);
