import type { ProjectModel } from '../format/model.ts';
import type { PastCall } from '../rules/guards.ts';
import { decideToolCall } from '../rules/guards.ts';
import type { Database } from '../sim/events.ts';
import { seedDatabase } from '../sim/database.ts';
import { runTool } from '../sim/toolRuntime.ts';
import type { ImportedTask } from './domain.ts';

/** How one task's expected actions fared when replayed: each call's outcome, in order. */
export interface TaskReplay {
  readonly task: string;
  readonly calls: ReadonlyArray<{
    readonly tool: string;
    readonly ok: boolean;
    /** The guard's reason for a refusal, or the tool's error. */
    readonly error?: string;
    /** How many rows the call changed. */
    readonly changes: number;
  }>;
  /** The seed database, and the database the task's calls left. */
  readonly start: Database;
  readonly end: Database;
}

/**
 * Replays each task's expected actions, in order, on a fresh copy of the imported project's
 * seed database: every call goes through the guards, then the tool (preconditions, then
 * effects), and the database each call leaves is the next one's. Pure: the clock is passed in.
 */
export function replayTasks(
  model: ProjectModel,
  tasks: readonly ImportedTask[],
  toolNames: ReadonlyMap<string, string>,
  now: string,
): TaskReplay[] {
  return tasks.map((task) => {
    const start = seedDatabase(model).db;
    let db = start;
    const history: PastCall[] = [];
    const calls = task.actions.map((action) => {
      const call = { tool: toolNames.get(action.name) ?? action.name, args: action.arguments };
      const decision = decideToolCall(model, call, { db, history, now });
      history.push({ ...call, allowed: decision.allowed });
      if (!decision.allowed)
        return { tool: call.tool, ok: false, error: decision.reason, changes: 0 };
      const outcome = runTool(model, db, call, { now });
      db = outcome.db;
      return outcome.ok
        ? { tool: call.tool, ok: true, changes: outcome.changes.length }
        : { tool: call.tool, ok: false, error: outcome.error, changes: 0 };
    });
    return { task: task.id, calls, start, end: db };
  });
}
