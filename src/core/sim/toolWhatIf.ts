import type { ProjectModel } from '../format/model.ts';
import type { Database } from './events.ts';
import { runTool } from './toolRuntime.ts';
import type { TranscriptCall } from './transcript.ts';

/**
 * What today's tool would answer a call, where that differs from what its logged run answered:
 * today's preconditions (`requires`) would refuse a call that the log ran (or that the guard
 * refused), with the tool's own error; or the log's tool refused it by a precondition and today's
 * would run it.
 */
export type ToolWhatIf =
  | { readonly refuses: true; readonly error: string }
  | { readonly refuses: false; readonly logged: string };

/** The ways the tool runtime words a failure that is not a precondition's (see `runTool`). */
const RUNTIME_FAILURES = [
  /^There is no tool named "/,
  /^The arguments of "[^"]*" (?:must be|do not fit)/,
  /^"[^"]*" failed and changed nothing: /,
];

/**
 * The error of a logged call that its tool refused by a precondition, as the agent was told it
 * (`Error: <error>`, the prefix taken off); undefined when the call ran, never reached the tool,
 * or failed for another reason (arguments that do not fit, an expression that failed).
 */
export function loggedPreconditionError(call: TranscriptCall): string | undefined {
  if (call.guard?.allowed !== true || call.result === undefined || call.result.ok) return undefined;
  const text = call.result.text;
  if (!text.startsWith('Error: ')) return undefined;
  const error = text.slice('Error: '.length);
  return RUNTIME_FAILURES.some((form) => form.test(error)) ? undefined : error;
}

/**
 * Today's tool tried on a logged call that today's guard rules would let through, on the database
 * as it stood just before the call (`db`) at the run's `now`: what it would answer differently
 * from the log as far as preconditions go, or undefined when it answers the same (or nothing can
 * be said: the tool is not today's, or it fails today for another reason). Pure; it changes
 * nothing, the dialogue least of all.
 */
export function toolWhatIf(
  model: ProjectModel,
  db: Database,
  call: TranscriptCall,
  now: string,
): ToolWhatIf | undefined {
  const tool = model.tools.find((t) => t.name === call.tool);
  if (!tool) return undefined;
  const today = runTool(model, db, { tool: call.tool, args: call.args }, { now });
  const logged = loggedPreconditionError(call);
  if (!today.ok) {
    const refusing = (tool.requires ?? []).some((r) => r.error === today.error);
    return refusing && today.error !== logged ? { refuses: true, error: today.error } : undefined;
  }
  return logged === undefined ? undefined : { refuses: false, logged };
}
