import type { RowChange, SimEvent, Speaker } from '../sim/events.ts';
import type { Transcript } from '../sim/transcript.ts';
import { transcriptOf } from '../sim/transcript.ts';

/** A tool call in a hand-written dialogue: refused by a guard, or run with a result. */
export interface CallSpec {
  readonly tool: string;
  readonly args?: Record<string, unknown>;
  readonly refused?: { readonly rule?: string; readonly reason: string };
  readonly ok?: boolean;
  readonly result?: string;
  readonly changes?: readonly RowChange[];
}

/** One message of a hand-written dialogue, with the agent's tool calls. */
export interface Step {
  readonly speaker: Speaker;
  readonly text: string;
  readonly calls: readonly CallSpec[];
}

/** A user message. */
export const U = (text: string): Step => ({ speaker: 'user', text, calls: [] });
/** An agent message and the calls it made. */
export const A = (text: string, ...calls: CallSpec[]): Step => ({ speaker: 'agent', text, calls });
/** The `refused` part of a call a guard rule turned down. */
export const refusedBy = (rule: string, reason: string) => ({ refused: { rule, reason } });

/** A dialogue's transcript, folded from the events the engine would log; turn = step index. */
export function dialogue(steps: readonly Step[]): Transcript {
  const at = { at: 0, dialogue: 'd1' } as const;
  const events: SimEvent[] = [];
  steps.forEach((step, turn) => {
    step.calls.forEach(
      ({ tool, args = {}, refused, ok = true, result = '{}', changes = [] }, i) => {
        const call = `c${turn}.${i}`;
        events.push({ type: 'tool-call', ...at, turn, call, tool, args });
        if (refused) {
          const { rule, reason } = refused;
          const by = rule === undefined ? {} : { rule, policy: `p-${rule}` };
          events.push({ type: 'guard', ...at, call, allowed: false, ...by, reason });
        } else {
          events.push({ type: 'guard', ...at, call, allowed: true, reason: 'allowed' });
          events.push({ type: 'tool-result', ...at, call, ok, result, changes });
        }
      },
    );
    events.push({ type: 'message', ...at, turn, speaker: step.speaker, text: step.text });
  });
  events.push({ type: 'dialogue-ended', ...at, reason: 'user-done', detail: '' });
  return transcriptOf(events, at.dialogue);
}
