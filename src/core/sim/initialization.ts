import type { ProjectModel, ToolInvocation } from '../format/model.ts';
import type { Database, RowChange } from './events.ts';
import { runTool } from './toolRuntime.ts';

/** One `initialization:` call as it ran: what the tool answered and the rows it changed. */
export interface SetupStep {
  readonly index: number;
  readonly call: ToolInvocation;
  readonly ok: boolean;
  readonly result: string;
  readonly changes: readonly RowChange[];
}

/**
 * Runs a scenario's `initialization:` calls in order on the starting database (dual control),
 * through the same tool runtime as the dialogue's calls and without guards (they hold the agent),
 * telling `onStep` of each. Stops at the first call that fails: the scenario cannot run as
 * written, and `problem` says which call and why.
 */
export function runInitialization(
  model: ProjectModel,
  start: Database,
  calls: readonly ToolInvocation[],
  now: string,
  onStep: (step: SetupStep) => void = () => undefined,
): { readonly db: Database; readonly problem?: string } {
  let db = start;
  for (const [index, call] of calls.entries()) {
    const outcome = runTool(model, db, call, { now });
    if (!outcome.ok) {
      onStep({ index, call, ok: false, result: `Error: ${outcome.error}`, changes: [] });
      return {
        db,
        problem: `initialization[${index}] (${call.tool}) failed: ${outcome.error}`,
      };
    }
    onStep({ index, call, ok: true, result: outcome.result, changes: outcome.changes });
    db = outcome.db;
  }
  return { db };
}
