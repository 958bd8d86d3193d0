import type { SimEvent, SimScenario } from './events.ts';

/** The finding-style id of a scenario's `i`th natural-language assertion. */
export const assertionId = (i: number): string => `expected.assertions[${i}]`;

type AssertionEvent = Extract<SimEvent, { type: 'assertion' }>;

/**
 * What became of one of a scenario's natural-language assertions in one dialogue: the judge
 * model's opinion (met or not), or not judged, with why. Always a model's opinion, never a verdict.
 */
export interface AssertionOpinion {
  /** `expected.assertions[0]`, ... */
  readonly id: string;
  readonly text: string;
  readonly policy: string | undefined;
  readonly opinion: 'met' | 'not-met' | 'not-judged';
  /** The agent turn the judge pointed at, when it named one that is there. */
  readonly turn: number | undefined;
  /** The judge's reason, or why it was not judged. */
  readonly reason: string;
  readonly evidence: string;
}

/** Why the dialogue's assertions could have no opinion: what the run and the dialogue say. */
export interface AssertionContext {
  /** The run had a judge model. */
  readonly judge: boolean;
  /** The dialogue has ended; an unfinished one is not judged yet. */
  readonly ended: boolean;
  /** The dialogue ended in an error, so the judge was not asked. */
  readonly error: boolean;
}

/**
 * Every assertion of the scenario, in order, with the judge's latest opinion of it in the
 * dialogue's `events` (of the same words), or marked not judged with why: no judge model, an
 * error ending, an unfinished dialogue, a judge that gave no answer, or an opinion of other words.
 * Never met without an opinion.
 */
export function assertionOpinions(
  scenario: SimScenario | undefined,
  events: readonly AssertionEvent[],
  context: AssertionContext,
): AssertionOpinion[] {
  const latest = new Map<string, AssertionEvent>();
  for (const e of events) latest.set(e.id, e);
  const why = !context.judge
    ? 'Not judged: the run had no judge model.'
    : !context.ended
      ? 'Not judged yet: the dialogue has not ended.'
      : context.error
        ? 'Not judged: the dialogue ended in an error.'
        : 'Not judged: the judge gave no answer (its call failed, or the run stopped).';
  return (scenario?.expected.assertions ?? []).map((assertion, i) => {
    const id = assertionId(i);
    const e = latest.get(id);
    const policy = assertion.policy;
    // An opinion of other words (a re-checked run whose scenario was edited since) is no opinion of these.
    const reworded = e !== undefined && e.text !== assertion.text;
    if (!e || reworded)
      return {
        id,
        text: assertion.text,
        policy,
        opinion: 'not-judged',
        turn: undefined,
        reason: reworded ? `Not judged: the judge was asked about other words (“${e.text}”).` : why,
        evidence: '',
      };
    return {
      id,
      text: assertion.text,
      policy,
      opinion: e.met ? 'met' : 'not-met',
      turn: e.turn,
      reason: e.reason,
      evidence: e.evidence,
    };
  });
}
