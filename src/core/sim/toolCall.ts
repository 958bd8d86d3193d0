import type { ProjectModel } from '../format/model.ts';
import type { ChatToolCall } from '../models/chat.ts';
import type { PastCall } from '../rules/guards.ts';
import { decideToolCall } from '../rules/guards.ts';
import { sideOfEntity, whose } from '../format/dualControl.ts';
import type { Database, RowChange, SimEvent } from './events.ts';
import type { PreconditionRefusal } from './toolRuntime.ts';
import { runTool } from './toolRuntime.ts';

/** Where a tool call happens: the dialogue, its log, its clock and the simulated `now`. */
export interface ToolCallScene {
  readonly model: ProjectModel;
  readonly dialogue: string;
  /** The agent message (turn) the call belongs to. */
  readonly turn: number;
  readonly now: string;
  readonly clock: () => number;
  readonly emit: (event: SimEvent) => void;
  /**
   * `user`: the simulated user calls one of its own tools (dual control): no guard decides it
   * (guard rules hold the agent) and it joins no guard history. Absent for the agent's calls.
   */
  readonly by?: 'user';
  /** The calls made so far in the dialogue; this one is added. */
  readonly history: PastCall[];
  /**
   * Puts a refused call's question to the simulated user (the `ask_user` fallback) and returns
   * the answer.
   */
  readonly askUser: (question: {
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly reason: string;
  }) => Promise<string>;
}

/** What became of a tool call: what the agent is told, the database after it, and any ending. */
export interface ToolCallOutcome {
  readonly content: string;
  readonly db: Database;
  /** A forbidding rule with `fallback: end` ended the dialogue, for this reason. */
  readonly ends?: string;
  /** The tool called is `not_imported`: the dialogue ends as an error of the project. */
  readonly projectError?: string;
}

/**
 * One tool call of the agent under test, logged step by step: the call, the guard's decision
 * (made before anything runs), then either the tool's run on the database with its changes (a
 * precondition of the tool that does not hold fails it with the tool's own error, which is not a
 * guard refusal: the guard event says allowed, the result says `ok: false`, and names the policy
 * when the precondition encodes one, so the attempt is a finding against it), or
 * the refused rule's fallback (a message back to the agent, a question to the user, or the end
 * of the dialogue); the result the agent is told closes it either way.
 */
export async function answerToolCall(
  call: ChatToolCall,
  db: Database,
  scene: ToolCallScene,
): Promise<ToolCallOutcome> {
  const { dialogue, emit, clock } = scene;
  // checkedChat has made sure the arguments are a JSON object.
  const args = JSON.parse(call.arguments === '' ? '{}' : call.arguments) as Record<string, unknown>;
  emit({
    type: 'tool-call',
    at: clock(),
    dialogue,
    turn: scene.turn,
    call: call.id,
    tool: call.name,
    args,
    ...(scene.by && { by: scene.by }),
  });
  const wrongSide = sideMismatch(scene, call.name);
  if (wrongSide !== undefined) return { content: closeCall(scene, call.id, false, wrongSide), db };
  if (scene.by === 'user') {
    const outcome = runTool(scene.model, db, { tool: call.name, args }, { now: scene.now });
    if (outcome.ok)
      return {
        content: closeCall(scene, call.id, true, outcome.result, outcome.changes),
        db: outcome.db,
      };
    const content = closeCall(scene, call.id, false, `Error: ${outcome.error}`);
    return { content, db, ...(outcome.notImported && { projectError: outcome.error }) };
  }
  const decision = decideToolCall(
    scene.model,
    { tool: call.name, args },
    { db, history: scene.history, now: scene.now },
  );
  const rule = decision.decidedBy.kind === 'rule' ? decision.decidedBy.rule : undefined;
  emit({
    type: 'guard',
    at: clock(),
    dialogue,
    call: call.id,
    allowed: decision.allowed,
    ...(rule && { rule: rule.id, policy: rule.policy }),
    ...(decision.fallback && !decision.allowed && { fallback: decision.fallback }),
    reason: decision.reason,
    ...(!decision.allowed && rule?.attempt === 'noted' && { noted: true as const }),
  });
  scene.history.push({ tool: call.name, args, allowed: decision.allowed });
  const result = (
    ok: boolean,
    content: string,
    changes: readonly RowChange[] = [],
    held: { refusedBy?: PreconditionRefusal; checked?: readonly string[] } = {},
  ) => {
    emit({
      type: 'tool-result',
      at: clock(),
      dialogue,
      call: call.id,
      ok,
      result: content,
      changes,
      ...(held.refusedBy && { refusedBy: held.refusedBy }),
      ...(held.checked && { checked: held.checked }),
    });
    return content;
  };

  if (decision.allowed) {
    const outcome = runTool(scene.model, db, { tool: call.name, args }, { now: scene.now });
    if (outcome.ok)
      return { content: result(true, outcome.result, outcome.changes, outcome), db: outcome.db };
    const content = result(false, `Error: ${outcome.error}`, [], outcome);
    return { content, db, ...(outcome.notImported && { projectError: outcome.error }) };
  }
  if (decision.fallback === 'ask_user') {
    const answer = await scene.askUser({ tool: call.name, args, reason: decision.reason });
    return {
      content: result(
        false,
        `Not done: ${decision.reason} The user was asked and answered: "${answer}"`,
      ),
      db,
    };
  }
  const content = result(false, `Refused: ${decision.reason}`);
  return decision.fallback === 'end' ? { content, db, ends: decision.reason } : { content, db };
}

/** Logs a call's result (what the caller is told, the rows it changed) and returns the text. */
function closeCall(
  scene: ToolCallScene,
  call: string,
  ok: boolean,
  content: string,
  changes: readonly RowChange[] = [],
): string {
  scene.emit({
    type: 'tool-result',
    at: scene.clock(),
    dialogue: scene.dialogue,
    call,
    ok,
    result: content,
    changes,
  });
  return content;
}

/** Why the caller may not call this tool (the other side's), or undefined when it may. */
function sideMismatch(scene: ToolCallScene, name: string): string | undefined {
  const tool = scene.model.tools.find((t) => t.name === name);
  const caller = scene.by ?? 'agent';
  // A setup or environment tool is offered to no model (setup calls do not come this way).
  if (tool?.runs !== undefined) return `Error: "${name}" is not a tool you can call.`;
  if (!tool || sideOfEntity(tool) === caller) return undefined;
  return `Error: "${name}" is ${whose(sideOfEntity(tool))} tool; ${whose(caller)} side cannot call it.`;
}
