import type { Finding, SimEvent, TerminationReason } from '../sim/events.ts';
import { LOG_VERSION } from '../sim/events.ts';
import type { PolicyFacts } from '../sim/report.ts';
import { testScenario } from './scenarios.ts';

/*
 * Hand-made run logs for the report's tests: events written as drafts without a time, stamped in
 * order, and one dialogue's events from a short plan of what happened in it.
 */

/** An event without its time; `stamp` gives it one. */
export type Draft = SimEvent extends infer E ? (E extends SimEvent ? Omit<E, 'at'> : never) : never;

/** Stamps events 10 ms apart, in the order given. */
export const stamp = (drafts: readonly Draft[]): SimEvent[] =>
  drafts.map((d, i) => ({ ...d, at: i * 10 }));

/** Four policies in three categories, with their challenges. */
export const POLICIES: PolicyFacts = new Map([
  ['ask-consent', { category: 'consent', challenge: 1 }],
  ['confirm-cancel', { category: 'consent', challenge: 3 }],
  ['privacy', { category: 'privacy', challenge: 4 }],
  ['refund-window', { category: 'refunds', challenge: 2 }],
]);

/** A generated scenario's announcement, testing `policies`. */
export function scenario(id: string, policies: string[], level?: number): Draft {
  const s = testScenario({
    id,
    policies,
    ...(level !== undefined && { level }),
    persona: 'a traveller',
    goal: 'change a booking',
  });
  return { type: 'scenario', scenario: s, source: 'generated' };
}

/** A finding that held. */
export const ok = (id: string, policy?: string): Finding => ({
  id,
  policy,
  passed: true,
  detail: 'held',
});
/** A finding that failed, at `turn` when given. */
export const broke = (id: string, policy: string | undefined, turn?: number): Finding => ({
  id,
  policy,
  passed: false,
  ...(turn !== undefined && { turn }),
  detail: `${id} failed`,
});

/** What happens in a hand-made dialogue: a refused call, findings, its ending, judge opinions. */
export interface Plan {
  readonly refuse?: { readonly rule?: string; readonly policy?: string; readonly turn: number };
  readonly findings?: readonly Finding[];
  readonly end?: TerminationReason;
  readonly judge?: readonly { readonly policy: string; readonly violated: boolean }[];
}

/** One dialogue's events: start, a user and an agent message, what the plan adds, the end. */
export function dialogue(id: string, scenarioId: string, trial: number, plan: Plan = {}): Draft[] {
  const events: Draft[] = [
    { type: 'dialogue-started', dialogue: id, scenario: scenarioId, trial },
    { type: 'message', dialogue: id, turn: 0, speaker: 'user', text: 'Hello' },
    { type: 'message', dialogue: id, turn: 1, speaker: 'agent', text: 'Hi' },
  ];
  const { refuse } = plan;
  if (refuse) {
    const call = `${id}-call`;
    const tool = { type: 'tool-call', dialogue: id, turn: refuse.turn, call, tool: 'cancel' };
    events.push({ ...tool, args: {} } as Draft, {
      type: 'guard',
      dialogue: id,
      call,
      allowed: false,
      ...(refuse.rule !== undefined && { rule: refuse.rule }),
      ...(refuse.policy !== undefined && { policy: refuse.policy }),
      fallback: 'message',
      reason: 'refused',
    });
  }
  if (plan.end) {
    events.push({ type: 'dialogue-ended', dialogue: id, reason: plan.end, detail: plan.end });
  }
  if (plan.findings) events.push({ type: 'checks', dialogue: id, findings: plan.findings });
  for (const j of plan.judge ?? []) {
    events.push({ type: 'judge', dialogue: id, ...j, turn: 1, reason: 'why', evidence: '"Hi"' });
  }
  return events;
}

/** The run's start: seed 7, two trials, the current log format. */
export const start: Extract<Draft, { type: 'run-started' }> = {
  type: 'run-started',
  version: LOG_VERSION,
  prompts: [],
  seed: 7,
  projectHash: 'abc',
  models: { agent: 'gpt-x' },
  trials: 2,
};
