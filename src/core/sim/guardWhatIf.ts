import type { ProjectModel, Row } from '../format/model.ts';
import type { PastCall } from '../rules/guards.ts';
import { decideToolCall } from '../rules/guards.ts';
import type { SimEvent } from './events.ts';
import type { Replay } from './replay.ts';
import type { TableAt } from './replayFrame.ts';
import { databaseAt } from './replayFrame.ts';
import type { ToolWhatIf } from './toolWhatIf.ts';
import { toolWhatIf } from './toolWhatIf.ts';

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
  /**
   * Where today's rules allow the call: today's tool's preconditions would refuse it (with the
   * tool's own error), or would let through a call the log's tool refused by a precondition.
   */
  readonly tool?: ToolWhatIf;
}

/** The what-ifs of a dialogue's calls, by replay step; or why none can be made. */
export type GuardWhatIfs =
  | {
      readonly ok: true;
      readonly calls: ReadonlyMap<number, GuardWhatIf>;
      /**
       * Tools the dialogue called that today's project does not have (a run of another project),
       * in the order first called; their calls get no what-if, which could only say "no such tool".
       */
      readonly foreignTools: readonly string[];
    }
  | { readonly ok: false; readonly problem: string };

/**
 * Decides every tool call of a replayed dialogue again with today's guard rules (`model`), as a
 * what-if that changes nothing in the dialogue: each call sees the database as it stood just
 * before it (`databaseAt` the step before), the dialogue's earlier calls as `history` with the
 * decisions the log recorded (what happened, not what today's rules would have made happen), and
 * the run's own `now`. Where today's rules allow a call, today's tool's preconditions are tried on
 * it too (`toolWhatIf`). A call without a logged decision (its run's agent was a person's own bot)
 * gets none, nor does a call to a tool today's project lacks (listed once, as `foreignTools`).
 * Refused, with the reason, for a log that does not record its run's `now` or starting database
 * (logs before format 3): a what-if on an invented time or a partial database would say more
 * than is known.
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
  const foreign = new Set<string>();
  for (const step of replay.steps) {
    const call = step.call;
    // A call the guard never decided never entered the dialogue's history either.
    if (call?.guard === undefined) continue;
    const past = { tool: call.tool, args: call.args, allowed: call.guard.allowed };
    if (!model.tools.some((t) => t.name === call.tool)) {
      foreign.add(call.tool);
      history.push(past);
      continue;
    }
    const db = rowsOf(databaseAt(replay, step.index - 1));
    const decision = decideToolCall(
      model,
      { tool: call.tool, args: call.args },
      { db, history, now: replay.now },
    );
    const rule = decision.decidedBy.kind === 'rule' ? decision.decidedBy.rule : undefined;
    const tool = decision.allowed ? toolWhatIf(model, db, call, replay.now) : undefined;
    calls.set(step.index, {
      step: step.index,
      call: call.call,
      allowed: decision.allowed,
      ...(rule && { rule: rule.id, policy: rule.policy }),
      ...(!decision.allowed && decision.fallback && { fallback: decision.fallback }),
      reason: decision.reason,
      differs: decision.allowed !== call.guard.allowed,
      ...(tool && { tool }),
    });
    history.push(past);
  }
  return { ok: true, calls, foreignTools: [...foreign] };
}

/** The database as guard conditions read it: rows by table, the deleted ones gone. */
function rowsOf(tables: readonly TableAt[]): Record<string, readonly Row[]> {
  return Object.fromEntries(
    tables.map((t) => [t.name, t.rows.flatMap((r) => (r.mark === 'delete' ? [] : [r.row]))]),
  );
}
