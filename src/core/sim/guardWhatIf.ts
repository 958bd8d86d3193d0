import type { ProjectModel, Row } from '../format/model.ts';
import type { PastCall } from '../rules/guards.ts';
import { decideToolCall } from '../rules/guards.ts';
import type { SimEvent } from './events.ts';
import type { Replay } from './replay.ts';
import type { TableAt } from './replayFrame.ts';
import { databaseAt } from './replayFrame.ts';

/*
 * Guard rules shaped the dialogue (a refused call never ran, and the agent answered the refusal),
 * so they cannot be re-run on it after the fact. What can be said is a what-if per tool call:
 * how today's rules would decide that call, in the situation the log records it was made in.
 */

/**
 * What today's guard rules would decide about one logged tool call: the fields a `guard` event
 * logs (the rule and policy only when a rule would decide; the fallback only when refused).
 */
export interface GuardWhatIf extends Omit<
  Extract<SimEvent, { type: 'guard' }>,
  'type' | 'at' | 'dialogue'
> {
  /** The replay step of the call (call ids may repeat within a dialogue; steps do not). */
  readonly step: number;
  /** Today's rules would allow a call the log refused, or refuse one it allowed. */
  readonly differs: boolean;
}

/** The what-ifs of a dialogue's calls, by replay step; or why none can be made. */
export type GuardWhatIfs =
  | { readonly ok: true; readonly calls: ReadonlyMap<number, GuardWhatIf> }
  | { readonly ok: false; readonly problem: string };

/**
 * Decides every tool call of a replayed dialogue again with today's guard rules (`model`), as a
 * what-if that changes nothing in the dialogue: each call sees the database as it stood just
 * before it (`databaseAt` the step before), the dialogue's earlier calls as `history` with the
 * decisions the log recorded (what happened, not what today's rules would have made happen), and
 * the run's own `now`. A call without a logged decision (its run's agent was a person's own bot)
 * gets none. Refused, with the reason, for a log that does not record its run's `now` or starting
 * database (logs before format 3): a what-if on an invented time or a partial database would say
 * more than is known.
 */
export function guardWhatIf(model: ProjectModel, replay: Replay): GuardWhatIfs {
  if (replay.now === undefined)
    return {
      ok: false,
      problem:
        'This run’s log was written before format 3 and does not record the time its rules saw, so today’s rules cannot be tried on its calls.',
    };
  if (replay.startDb === null)
    return {
      ok: false,
      problem:
        'This run’s log does not record the database its dialogues began from, so today’s rules cannot be tried on its calls.',
    };
  const calls = new Map<number, GuardWhatIf>();
  const history: PastCall[] = [];
  for (const step of replay.steps) {
    const call = step.call;
    // A call the guard never decided never entered the dialogue's history either.
    if (call?.guard === undefined) continue;
    const decision = decideToolCall(
      model,
      { tool: call.tool, args: call.args },
      { db: rowsOf(databaseAt(replay, step.index - 1)), history, now: replay.now },
    );
    const rule = decision.decidedBy.kind === 'rule' ? decision.decidedBy.rule : undefined;
    calls.set(step.index, {
      step: step.index,
      call: call.call,
      allowed: decision.allowed,
      ...(rule && { rule: rule.id, policy: rule.policy }),
      ...(!decision.allowed && decision.fallback && { fallback: decision.fallback }),
      reason: decision.reason,
      differs: decision.allowed !== call.guard.allowed,
    });
    history.push({ tool: call.tool, args: call.args, allowed: call.guard.allowed });
  }
  return { ok: true, calls };
}

/** The database as guard conditions read it: rows by table, the deleted ones gone. */
function rowsOf(tables: readonly TableAt[]): Record<string, readonly Row[]> {
  return Object.fromEntries(
    tables.map((t) => [t.name, t.rows.flatMap((r) => (r.mark === 'delete' ? [] : [r.row]))]),
  );
}
